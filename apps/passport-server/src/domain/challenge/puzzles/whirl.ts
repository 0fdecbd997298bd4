import type { PuzzleKind } from '../puzzle';
import { between, hsl, n, uniform } from '../random';
import { pngDataUrl, svgDocument, svgToPng } from '../render';

const SIZE = 220;
/** How far (degrees) from upright a rotated answer may be. */
export const WHIRL_TOLERANCE = 12;

/** A picture with an obvious up: sky above, ground below, a sun, trees and a house standing on it. */
function upright(): string {
  const hue = uniform(180, 230);
  const ground = SIZE * uniform(0.6, 0.7);
  const parts = [
    `<defs><linearGradient id="wsky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(hue, 70, 55)}"/><stop offset="1" stop-color="${hsl(hue, 60, 85)}"/></linearGradient></defs>`,
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#wsky)"/>`,
    `<circle cx="${n(uniform(40, SIZE - 40))}" cy="${n(uniform(25, 55))}" r="${n(uniform(12, 20))}" fill="${hsl(uniform(40, 55), 95, 60)}"/>`,
  ];
  for (let i = 0; i < between(2, 4); i++) {
    const cx = uniform(10, SIZE - 10);
    const cy = uniform(40, ground - 50);
    parts.push(
      `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(uniform(14, 26))}" ry="${n(uniform(6, 10))}" fill="#fff" opacity="0.85"/>`,
    );
  }
  parts.push(
    `<rect y="${n(ground)}" width="${SIZE}" height="${n(SIZE - ground)}" fill="${hsl(uniform(80, 130), 50, 38)}"/>`,
  );
  const houseX = uniform(30, SIZE - 90);
  const houseW = uniform(44, 60);
  const houseH = uniform(30, 42);
  parts.push(
    `<rect x="${n(houseX)}" y="${n(ground - houseH)}" width="${n(houseW)}" height="${n(houseH)}" fill="${hsl(uniform(0, 50), 45, 65)}"/>`,
    `<polygon points="${n(houseX - 6)},${n(ground - houseH)} ${n(houseX + houseW / 2)},${n(ground - houseH - uniform(22, 32))} ${n(houseX + houseW + 6)},${n(ground - houseH)}" fill="${hsl(uniform(0, 20), 60, 40)}"/>`,
    `<rect x="${n(houseX + houseW / 2 - 6)}" y="${n(ground - 18)}" width="12" height="18" fill="${hsl(25, 40, 30)}"/>`,
  );
  for (let i = 0; i < between(2, 4); i++) {
    const tx = uniform(10, SIZE - 10);
    const th = uniform(40, 70);
    parts.push(
      `<rect x="${n(tx - 3)}" y="${n(ground - th * 0.4)}" width="6" height="${n(th * 0.4)}" fill="${hsl(25, 45, 28)}"/>`,
      `<polygon points="${n(tx - 16)},${n(ground - th * 0.35)} ${n(tx)},${n(ground - th)} ${n(tx + 16)},${n(ground - th * 0.35)}" fill="${hsl(uniform(100, 140), 55, 30)}"/>`,
    );
  }
  for (let i = 0; i < 120; i++) {
    parts.push(
      `<rect x="${n(uniform(0, SIZE))}" y="${n(uniform(0, SIZE))}" width="2" height="2" fill="${hsl(uniform(0, 360), 30, uniform(20, 95))}" opacity="0.5"/>`,
    );
  }
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
