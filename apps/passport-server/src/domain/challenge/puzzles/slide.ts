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
 * Every gap (the real one and the decoys) is filled alike: an opaque, speckled patch of a mid tone (not
 * darker than the picture around it) with a light rim, so the picture under it no longer shows through. A template match of the piece against
 * "the picture, darkened" (what solved the old puzzle) has nothing to find; a person matches the
 * piece's outline to the one gap of the same outline.
 */
function gap(shape: Shape, x: number, y: number, tone: number): string {
  const id = `g${x}`;
  const specks = Array.from(
    { length: 26 },
    () =>
      `<rect x="${n(uniform(0, PIECE))}" y="${n(uniform(0, PIECE))}" width="2" height="2" fill="${hsl(uniform(0, 360), 20, uniform(20, 60))}"/>`,
  ).join('');
  return `<g transform="translate(${x} ${y})"><clipPath id="${id}"><path d="${outline(shape)}"/></clipPath><path d="${outline(shape)}" fill="${hsl(tone + uniform(-40, 40), uniform(10, 35), uniform(38, 62))}"/><g clip-path="url(#${id})">${specks}</g><path d="${outline(shape)}" fill="none" stroke="rgba(255,255,255,0.85)" stroke-width="2"/></g>`;
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
 * same row. Answer: the piece's left edge (px) and a plausible drag trace. Landing on a decoy is what a
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
    const tone = uniform(0, 360);
    const gaps = [gap(shape, x, y, tone), ...decoyXs.map((dx) => gap(otherShape(shape), dx, y, tone))];
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
