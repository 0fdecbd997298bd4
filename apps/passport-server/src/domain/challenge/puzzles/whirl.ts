import type { PuzzleKind } from '../puzzle';
import { between, hsl, n, pick, uniform } from '../random';
import { pngDataUrl, svgDocument, svgToPng } from '../render';

const SIZE = 220;
/** How far (degrees) from upright a rotated answer may be. */
export const WHIRL_TOLERANCE = 8;

/**
 * A picture whose up a person reads from what stands in it (a house on its ground, trees, a door, a
 * window), not from where the light is: sky and ground take colours and lightness from one palette, a
 * light ground under a dark sky as often as the reverse (snow at night, sand under a storm), the horizon
 * wanders between a third and three quarters of the height, and a texture of strokes and specks covers
 * both. The old picture (bright blue sky above green ground) told its up to a brightness centroid.
 */
function upright(): string {
  const ground = SIZE * uniform(0.42, 0.72);
  // Sky and ground draw their lightness from one range, independently: neither is the brighter half.
  const skyL = uniform(35, 72);
  const groundL = uniform(35, 72);
  const skyHue = uniform(0, 360);
  const groundHue = skyHue + uniform(-50, 50);
  const parts = [
    `<defs><linearGradient id="wsky" x1="0" y1="${n(uniform(0, 1))}" x2="${n(uniform(0, 1))}" y2="${n(uniform(0, 1))}"><stop offset="0" stop-color="${hsl(skyHue, uniform(25, 60), skyL)}"/><stop offset="1" stop-color="${hsl(skyHue + uniform(-30, 30), uniform(25, 60), groundL)}"/></linearGradient></defs>`,
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#wsky)"/>`,
  ];
  // Discs of both lightnesses anywhere: a sun, a moon, or a pond; no bright spot marks the sky.
  for (let i = 0; i < between(3, 5); i++) {
    parts.push(
      `<circle cx="${n(uniform(20, SIZE - 20))}" cy="${n(uniform(20, SIZE - 20))}" r="${n(uniform(8, 20))}" fill="${hsl(uniform(0, 360), uniform(30, 90), pick([skyL, groundL]) + uniform(-10, 10))}" opacity="${n(uniform(0.6, 1))}"/>`,
    );
  }
  // The ground: a rolling edge, not a straight horizon.
  let d = `M0 ${n(SIZE)} L0 ${n(ground + uniform(-18, 18))}`;
  const steps = between(3, 5);
  for (let i = 1; i <= steps; i++) {
    const x = (SIZE * i) / steps;
    d += ` Q${n(x - SIZE / steps / 2)} ${n(ground + uniform(-28, 28))} ${n(x)} ${n(ground + uniform(-14, 14))}`;
  }
  parts.push(`<path d="${d} L${SIZE} ${SIZE} Z" fill="${hsl(groundHue, uniform(25, 60), groundL)}"/>`);
  const houseX = uniform(30, SIZE - 90);
  const houseW = uniform(44, 60);
  const houseH = uniform(30, 42);
  const base = ground + 6;
  parts.push(
    `<rect x="${n(houseX)}" y="${n(base - houseH)}" width="${n(houseW)}" height="${n(houseH)}" fill="${hsl(uniform(0, 360), 45, uniform(40, 70))}"/>`,
    `<polygon points="${n(houseX - 6)},${n(base - houseH)} ${n(houseX + houseW / 2)},${n(base - houseH - uniform(22, 32))} ${n(houseX + houseW + 6)},${n(base - houseH)}" fill="${hsl(uniform(0, 40), 60, uniform(30, 50))}"/>`,
    `<rect x="${n(houseX + houseW / 2 - 6)}" y="${n(base - 18)}" width="12" height="18" fill="${hsl(25, 40, 25)}"/>`,
    `<rect x="${n(houseX + 6)}" y="${n(base - houseH + 6)}" width="10" height="9" fill="${hsl(50, 80, 75)}"/>`,
  );
  for (let i = 0; i < between(2, 4); i++) {
    const tx = uniform(10, SIZE - 10);
    const th = uniform(40, 70);
    parts.push(
      `<rect x="${n(tx - 3)}" y="${n(base - th * 0.4)}" width="6" height="${n(th * 0.4)}" fill="${hsl(25, 45, 28)}"/>`,
      `<polygon points="${n(tx - 16)},${n(base - th * 0.35)} ${n(tx)},${n(base - th)} ${n(tx + 16)},${n(base - th * 0.35)}" fill="${hsl(uniform(90, 150), 50, uniform(25, 55))}"/>`,
    );
  }
  // Texture: strokes in every direction and specks of both lightnesses over everything.
  for (let i = 0; i < 40; i++) {
    const x = uniform(0, SIZE);
    const y = uniform(0, SIZE);
    const a = uniform(0, Math.PI * 2);
    const l = uniform(6, 22);
    parts.push(
      `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x + Math.cos(a) * l)}" y2="${n(y + Math.sin(a) * l)}" stroke="${hsl(uniform(0, 360), 30, pick([skyL, groundL]))}" stroke-width="${n(uniform(1, 3))}" opacity="0.6"/>`,
    );
  }
  for (let i = 0; i < 160; i++) {
    parts.push(
      `<rect x="${n(uniform(0, SIZE))}" y="${n(uniform(0, SIZE))}" width="2" height="2" fill="${hsl(uniform(0, 360), 30, uniform(15, 90))}" opacity="0.6"/>`,
    );
  }
  // Light falling across the whole picture from a random side: the brightest half points anywhere.
  const a = uniform(0, Math.PI * 2);
  const [x1, y1] = [0.5 + Math.cos(a) / 2, 0.5 + Math.sin(a) / 2];
  parts.push(
    `<defs><linearGradient id="wlight" x1="${n(x1)}" y1="${n(y1)}" x2="${n(1 - x1)}" y2="${n(1 - y1)}"><stop offset="0" stop-color="#fff" stop-opacity="0.45"/><stop offset="0.5" stop-color="#fff" stop-opacity="0"/><stop offset="0.5" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></linearGradient></defs>`,
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#wlight)"/>`,
  );
  return parts.join('');
}

/** The smallest distance between two angles, in degrees. */
export function angleDistance(a: number, b: number): number {
  const d = (((a - b) % 360) + 360) % 360;
  return Math.min(d, 360 - d);
}

/**
 * Whirl: the picture is shown turned by a random angle; the person turns it back upright.
 * Answer: the clockwise rotation (degrees) the person applied; right when it cancels the turn.
 */
export const whirl: PuzzleKind = {
  subtype: 'whirl',
  // A blind turn passes 16/360 of the time; with one try per picture that is 4.4 %, and a miss draws
  // a new picture (5 per challenge id).
  maxTries: 1,
  async generate() {
    const turned = between(40, 320);
    const c = SIZE / 2;
    const body = `<defs><clipPath id="wclip"><circle cx="${c}" cy="${c}" r="${c - 2}"/></clipPath></defs><g clip-path="url(#wclip)"><g transform="rotate(${turned} ${c} ${c})">${upright()}</g></g>`;
    const png = await svgToPng(svgDocument(SIZE, SIZE, body));
    return {
      view: { image: pngDataUrl(png), width: SIZE, height: SIZE },
      answer: { kind: 'whirl', angle: turned },
    };
  },
  check(answer, submission) {
    if (answer.kind !== 'whirl' || submission.angle === undefined) return false;
    return angleDistance(answer.angle + submission.angle, 0) <= WHIRL_TOLERANCE;
  },
};
