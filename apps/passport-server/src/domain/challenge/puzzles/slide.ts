import sharp from 'sharp';
import type { PuzzleKind } from '../puzzle';
import { between, hsl, n, pick, shuffle, uniform } from '../random';
import { pngDataUrl, scene, svgDocument, svgToPng } from '../render';
import { plausibleTrace } from '../trace';

const WIDTH = 320;
const HEIGHT = 160;
/** The piece's square body and the radius of its knobs. */
const BODY = 52;
const KNOB = 9;
const PIECE = BODY + 2 * KNOB;
/** The blur (px) on a gap's fill: a soft rim that people still read as a shape but edge filters barely see. */
const FEATHER = 3;
/** How far (px) the dropped piece may be from the gap. */
export const SLIDE_TOLERANCE = 5;
/** Where gaps may stand (their left edge), and how far apart. */
const MIN_X = 24;
const MAX_X = WIDTH - PIECE - 4;

/**
 * A jigsaw outline in a PIECE × PIECE box: the body with one knob (out) or notch (in) on each side, or
 * a flat side. Which sides carry what is the shape; the piece and its gap share one, the decoys differ.
 */
type Side = 'out' | 'in' | 'flat';
type Shape = readonly [top: Side, right: Side, bottom: Side, left: Side];
const SIDES: readonly Side[] = ['out', 'in', 'flat'];

function outline([top, right, bottom, left]: Shape): string {
  const o = KNOB;
  const mid = o + BODY / 2;
  const arc = (side: Side, ex: number, ey: number, outward: 0 | 1) =>
    side === 'flat'
      ? `L${n(ex)} ${n(ey)}`
      : `A${KNOB} ${KNOB} 0 0 ${side === 'out' ? outward : 1 - outward} ${n(ex)} ${n(ey)}`;
  return [
    `M${o} ${o}`,
    `H${n(mid - KNOB)}`,
    arc(top, mid + KNOB, o, 1),
    `H${o + BODY}`,
    `V${n(mid - KNOB)}`,
    arc(right, o + BODY, mid + KNOB, 1),
    `V${o + BODY}`,
    `H${n(mid + KNOB)}`,
    arc(bottom, mid - KNOB, o + BODY, 1),
    `H${o}`,
    `V${n(mid + KNOB)}`,
    arc(left, o, mid - KNOB, 1),
    'Z',
  ].join(' ');
}

const randomShape = (): Shape => [pick(SIDES), pick(SIDES), pick(SIDES), pick(SIDES)];
/** At least two sides differ: a decoy never passes for the piece's gap at a glance. */
function otherShape(than: Shape): Shape {
  for (;;) {
    const shape = randomShape();
    if (shape.filter((side, i) => side !== than[i]).length >= 2) return shape;
  }
}

/**
 * The lines every gap carries, whatever its outline: the body's square and a full circle at the middle
 * of each side, so every outline a piece can have (a knob is a circle's outer half, a notch its inner
 * half). An outline laid over the picture's edges finds the same lines at every gap; only the fill, a
 * region that people see at a glance, shows which outline the gap has.
 */
function guideLines(): string {
  const o = KNOB;
  const mid = o + BODY / 2;
  const circles = [
    [mid, o],
    [o + BODY, mid],
    [mid, o + BODY],
    [o, mid],
  ]
    .map(([cx, cy]) => `<circle cx="${cx}" cy="${cy}" r="${KNOB}"/>`)
    .join('');
  return `<g fill="none" stroke="rgba(255,255,255,0.85)" stroke-width="2"><rect x="${o}" y="${o}" width="${BODY}" height="${BODY}"/>${circles}</g>`;
}

/**
 * A gap: an opaque, speckled patch of its outline in `fill` (the picture under it no longer shows
 * through), under the guide lines every gap shares.
 */
function gap(shape: Shape, x: number, y: number, { defs, fill }: Paint): string {
  const id = `g${x}`;
  const specks = Array.from(
    { length: 26 },
    () =>
      `<rect x="${n(uniform(0, PIECE))}" y="${n(uniform(0, PIECE))}" width="2" height="2" fill="${hsl(uniform(0, 360), 20, uniform(20, 60))}"/>`,
  ).join('');
  return `<g transform="translate(${x} ${y})"><clipPath id="${id}"><path d="${outline(shape)}"/></clipPath><filter id="${id}f" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="${FEATHER}"/></filter>${defs}<g filter="url(#${id}f)"><path d="${outline(shape)}" fill="${fill}"/><g clip-path="url(#${id})">${specks}</g></g>${guideLines()}</g>`;
}

type Rgb = readonly [red: number, green: number, blue: number];
const luma = ([red, green, blue]: Rgb) => 0.299 * red + 0.587 * green + 0.114 * blue;

/** An HSL colour (degrees, 0-1, 0-1) as RGB 0-255. */
function rgbOf(hue: number, saturation: number, lightness: number): Rgb {
  const k = (m: number) => (m + hue / 30) % 12;
  const a = saturation * Math.min(lightness, 1 - lightness);
  const f = (m: number) => 255 * (lightness - a * Math.max(-1, Math.min(k(m) - 3, 9 - k(m), 1)));
  return [f(0), f(8), f(4)];
}

/** A gap's fill: an SVG paint and the definitions it refers to. */
interface Paint {
  defs: string;
  fill: string;
}

const css = (rgb: Rgb) => `rgb(${rgb.map(Math.round).join(' ')})`;
/** Half the mean of two colours: the two halves of a gap's picture, darkened as the old gaps were. */
const halfOfMean = (a: Rgb, b: Rgb): Rgb => [(a[0] + b[0]) / 4, (a[1] + b[1]) / 4, (a[2] + b[2]) / 4];

/**
 * The fill of the real gap and the plain decoys: a saturated colour of a random hue, running from the
 * lightness (luma) of the picture under the gap's upper half to that of its lower half. People see colour borders at once; an edge filter on lightness, what outline matchers run,
 * finds little at them.
 */
function plainFill(id: string, upper: Rgb, lower: Rgb): Paint {
  const hue = uniform(0, 360);
  const saturation = uniform(0.55, 0.8);
  const atLuma = (target: Rgb): Rgb => {
    // Bisection: luma rises with lightness at a fixed hue and saturation.
    let low = 0.1;
    let high = 0.9;
    for (let i = 0; i < 12; i++) {
      const mid = (low + high) / 2;
      if (luma(rgbOf(hue, saturation, mid)) < luma(target)) low = mid;
      else high = mid;
    }
    return rgbOf(hue, saturation, (low + high) / 2);
  };
  return {
    defs: `<linearGradient id="${id}l" gradientUnits="userSpaceOnUse" x1="0" y1="${PIECE / 4}" x2="0" y2="${(3 * PIECE) / 4}"><stop offset="0" stop-color="${css(atLuma(upper))}"/><stop offset="1" stop-color="${css(atLuma(lower))}"/></linearGradient>`,
    fill: `url(#${id}l)`,
  };
}

/**
 * Left edges for `count` gaps on the row, none overlapping another, in random order. Drawn directly:
 * `count` offsets in the row's slack, sorted, each gap then one piece (and 2 px) right of the one before.
 * Drawing edges until they happened not to overlap took about half a million tries for four gaps (the
 * row has 6 px of slack then), blocking the event loop for most of a second per slide puzzle.
 */
export function gapPositions(count: number): number[] {
  const step = PIECE + 2;
  const slack = MAX_X - MIN_X - (count - 1) * step;
  if (slack < 0) throw new Error(`the slide row has no room for ${count} gaps`);
  const offsets = Array.from({ length: count }, () => between(0, slack)).sort((a, b) => a - b);
  return shuffle(offsets.map((offset, i) => MIN_X + offset + i * step));
}

/** The row's bounds and the least distance between two gaps' left edges (for the tests). */
export const SLIDE_ROW = { minX: MIN_X, maxX: MAX_X, step: PIECE + 2 } as const;

/**
 * Slide: drag the piece into the gap of its own outline; 2-3 decoy gaps of other outlines stand on the
 * same row, one of them the shadow decoy (docs/security.md, "scripts that read the images"). Answer: the piece's left edge (px) and a plausible drag trace. Landing on a decoy is what a
 * script that finds gaps does, not a person lining up the piece: the puzzle dies at once (draw another).
 */
export const slide: PuzzleKind = {
  subtype: 'slide',
  // A blind drop passes about 11/250 of the time; two tries keep a script's free guesses under 10 %.
  maxTries: 2,
  async generate() {
    const shape = randomShape();
    const decoys = between(2, 3);
    const [x, ...decoyXs] = gapPositions(decoys + 1) as [number, ...number[]];
    const y = between(4, HEIGHT - PIECE - 4);
    const background = await svgToPng(svgDocument(WIDTH, HEIGHT, scene(WIDTH, HEIGHT, 's')));
    const piece = await sharp(background)
      .extract({ left: x, top: y, width: PIECE, height: PIECE })
      .composite([
        {
          input: Buffer.from(svgDocument(PIECE, PIECE, `<path d="${outline(shape)}" fill="#fff"/>`)),
          blend: 'dest-in',
        },
        {
          input: Buffer.from(
            svgDocument(
              PIECE,
              PIECE,
              `<path d="${outline(shape)}" fill="none" stroke="rgba(255,255,255,0.9)" stroke-width="2"/>`,
            ),
          ),
        },
      ])
      .png()
      .toBuffer();
    // The mean colour of the picture under a gap's upper or lower half, from one decode of the picture.
    const raw = await sharp(background).removeAlpha().raw().toBuffer();
    const half = PIECE / 2;
    const around = (left: number, top: number): Rgb => {
      const sum = [0, 0, 0];
      for (let row = top; row < top + half; row++)
        for (let col = left; col < left + PIECE; col++)
          for (let c = 0; c < 3; c++)
            sum[c] = (sum[c] as number) + (raw[(row * WIDTH + col) * 3 + c] as number);
      const [red = 0, green = 0, blue = 0] = sum.map((total) => total / (half * PIECE));
      return [red, green, blue];
    };
    const plain = (left: number) => plainFill(`p${left}`, around(left, y), around(left, y + half));
    // The shadow decoy: the piece's own colour at half its lightness, the look of the old gaps (the
    // picture darkened) that gap-finding scripts are built for, in an outline that is not the piece's.
    const [upper, lower] = [around(x, y), around(x, y + half)];
    const shadow: Paint = { defs: '', fill: css(halfOfMean(upper, lower)) };
    const gaps = [
      gap(shape, x, y, plain(x)),
      ...decoyXs.map((dx, i) => gap(otherShape(shape), dx, y, i === 0 ? shadow : plain(dx))),
    ];
    // Noise over the whole picture, so the gaps' speckle is no signature of their own.
    const noise = Array.from(
      { length: 220 },
      () =>
        `<rect x="${n(uniform(0, WIDTH))}" y="${n(uniform(0, HEIGHT))}" width="2" height="2" fill="${hsl(uniform(0, 360), 20, uniform(20, 60))}" opacity="${n(uniform(0.5, 0.9))}"/>`,
    ).join('');
    const withGaps = await sharp(background)
      .composite([{ input: Buffer.from(svgDocument(WIDTH, HEIGHT, `${gaps.join('')}${noise}`)) }])
      .png()
      .toBuffer();
    return {
      view: {
        image: pngDataUrl(withGaps),
        width: WIDTH,
        height: HEIGHT,
        piece: pngDataUrl(piece),
        piece_width: PIECE,
        piece_height: PIECE,
        piece_y: y,
      },
      answer: { kind: 'slide', x, decoys: decoyXs },
    };
  },
  check(answer, submission) {
    if (answer.kind !== 'slide' || submission.x === undefined) return false;
    if (Math.abs(submission.x - answer.x) > SLIDE_TOLERANCE) return false;
    return plausibleTrace(submission.trace, { endX: submission.x, tolerance: 3 });
  },
  fatal(answer, submission) {
    if (answer.kind !== 'slide' || submission.x === undefined) return false;
    const x = submission.x;
    return (answer.decoys ?? []).some((d) => Math.abs(x - d) <= SLIDE_TOLERANCE);
  },
};
