import sharp from 'sharp';
import type { PuzzleKind } from '../puzzle';
import { between, n } from '../random';
import { pngDataUrl, scene, svgDocument, svgToPng } from '../render';
import { plausibleTrace } from '../trace';

const WIDTH = 320;
const HEIGHT = 160;
/** The piece's square body and the radius of its two knobs (top and right). */
const BODY = 52;
const KNOB = 9;
const PIECE = BODY + KNOB;
/** How far (px) the dropped piece may be from the gap. */
export const SLIDE_TOLERANCE = 5;

/** The jigsaw outline, in the piece's own box (PIECE × PIECE). */
function outline(): string {
  const mid = BODY / 2;
  return [
    `M0 ${KNOB}`,
    `H${n(mid - KNOB)}`,
    `A${KNOB} ${KNOB} 0 0 1 ${n(mid + KNOB)} ${KNOB}`,
    `H${BODY}`,
    `V${n(KNOB + mid - KNOB)}`,
    `A${KNOB} ${KNOB} 0 0 1 ${BODY} ${n(KNOB + mid + KNOB)}`,
    `V${PIECE}`,
    'H0 Z',
  ].join(' ');
}

const shape = (fill: string, stroke: string) =>
  svgDocument(PIECE, PIECE, `<path d="${outline()}" fill="${fill}" stroke="${stroke}" stroke-width="2"/>`);

/** Slide: drag the piece into the gap. Answer: the piece's left edge (px) and a plausible drag trace. */
export const slide: PuzzleKind = {
  subtype: 'slide',
  async generate() {
    const x = between(PIECE + 24, WIDTH - PIECE - 6);
    const y = between(6, HEIGHT - PIECE - 6);
    const background = await svgToPng(svgDocument(WIDTH, HEIGHT, scene(WIDTH, HEIGHT, 's')));
    const piece = await sharp(background)
      .extract({ left: x, top: y, width: PIECE, height: PIECE })
      .composite([{ input: Buffer.from(shape('#fff', 'none')), blend: 'dest-in' }])
      .composite([{ input: Buffer.from(shape('none', 'rgba(255,255,255,0.9)')) }])
      .png()
      .toBuffer();
    const withGap = await sharp(background)
      .composite([{ input: Buffer.from(shape('rgba(0,0,0,0.5)', 'rgba(255,255,255,0.8)')), left: x, top: y }])
      .png()
      .toBuffer();
    return {
      view: {
        image: pngDataUrl(withGap),
        width: WIDTH,
        height: HEIGHT,
        piece: pngDataUrl(piece),
        piece_width: PIECE,
        piece_height: PIECE,
        piece_y: y,
      },
      answer: { kind: 'slide', x },
    };
  },
  check(answer, submission) {
    if (answer.kind !== 'slide' || submission.x === undefined) return false;
    if (Math.abs(submission.x - answer.x) > SLIDE_TOLERANCE) return false;
    return plausibleTrace(submission.trace, { endX: submission.x, tolerance: 3 });
  },
};
