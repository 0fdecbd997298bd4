import type { Puzzle, Submission } from '../../src/domain/challenge/puzzle';
import { at, hsv, type Pixels, pixels } from './solvers';

/**
 * The 3d solvers of issue 10 (used by challenge-solvers.test.ts and by scripts/measure-3d.ts, which
 * runs them over more puzzles than a test should). Each reads only the client's view: the picture and
 * the prompt.
 */

/** The hues the review's script reads colour words as. */
const HUES: Record<string, number> = { red: 2, yellow: 50, green: 125, blue: 220, purple: 280 };

/** The prompt's colour and shape words ("Click the red cube"). */
function promptWords(puzzle: Puzzle): { colour: string; shape: string } {
  const [, colour = '', shape = ''] = /^Click the (\w+) (\w+)$/.exec(puzzle.view.prompt ?? '') ?? [];
  return { colour, shape };
}

/**
 * Each puzzle's mask, worked out once: challenge-solvers.test.ts judges several solvers on one sample
 * and trains two classifiers on one training set, and decoding a picture and reading each pixel's hue
 * was most of what they spent. The solvers only read the picture and the mask.
 */
const masks = new WeakMap<Puzzle, Promise<{ image: Pixels; matches: Uint8Array }>>();

/** The pixels of the prompt's colour: saturated, not dark, within 20° of its hue. */
function hueMask(puzzle: Puzzle): Promise<{ image: Pixels; matches: Uint8Array }> {
  let mask = masks.get(puzzle);
  if (!mask) {
    mask = readHueMask(puzzle);
    masks.set(puzzle, mask);
  }
  return mask;
}

async function readHueMask(puzzle: Puzzle): Promise<{ image: Pixels; matches: Uint8Array }> {
  const target = HUES[promptWords(puzzle).colour];
  if (target === undefined) throw new Error(`no colour in "${puzzle.view.prompt}"`);
  const image = await pixels(puzzle.view.image);
  const matches = new Uint8Array(image.width * image.height);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const q = at(image, x, y);
      const { hue, sat, value } = hsv(
        image.data[q] as number,
        image.data[q + 1] as number,
        image.data[q + 2] as number,
      );
      const off = Math.abs(((hue - target + 540) % 360) - 180);
      if (sat >= 0.35 && value >= 0.2 && off <= 20) matches[y * image.width + x] = 1;
    }
  }
  return { image, matches };
}

/**
 * Morphological opening by a square of side 2k+1 (erode, then dilate): bands of paint thinner than
 * that fall away, the solids stay. Separable, so it costs two passes per step.
 */
function opened(mask: Uint8Array, width: number, k: number): Uint8Array {
  if (k === 0) return mask;
  const height = mask.length / width;
  // One pass along rows or columns: each pixel keeps 1 when its window of 2k+1 (cut at the edges) is
  // all set (erode) or has any set (dilate). A running count makes it linear in the picture.
  const pass = (src: Uint8Array, all: boolean, horizontal: boolean) => {
    const out = new Uint8Array(src.length);
    const [lines, length] = horizontal ? [height, width] : [width, height];
    const index = (line: number, i: number) => (horizontal ? line * width + i : i * width + line);
    for (let line = 0; line < lines; line++) {
      let count = 0;
      for (let i = 0; i < Math.min(k, length); i++) count += src[index(line, i)] as number;
      for (let i = 0; i < length; i++) {
        if (i + k < length) count += src[index(line, i + k)] as number;
        if (i - k - 1 >= 0) count -= src[index(line, i - k - 1)] as number;
        const total = Math.min(length - 1, i + k) - Math.max(0, i - k) + 1;
        out[index(line, i)] = (all ? count === total : count > 0) ? 1 : 0;
      }
    }
    return out;
  };
  return pass(pass(pass(pass(mask, true, true), true, false), false, true), false, false);
}

/** A connected region of the mask: its pixel indices, centroid and bounding box. */
interface Region {
  pixels: number[];
  cx: number;
  cy: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The 4-connected regions of at least `min` pixels. */
function regions(matches: Uint8Array, width: number, min = 80): Region[] {
  const seen = new Uint8Array(matches.length);
  const found: Region[] = [];
  for (let start = 0; start < matches.length; start++) {
    if (!matches[start] || seen[start]) continue;
    const region: Region = { pixels: [], cx: 0, cy: 0, left: width, top: Infinity, right: 0, bottom: 0 };
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const x = i % width;
      const y = (i - x) / width;
      region.pixels.push(i);
      region.cx += x;
      region.cy += y;
      region.left = Math.min(region.left, x);
      region.right = Math.max(region.right, x);
      region.top = Math.min(region.top, y);
      region.bottom = Math.max(region.bottom, y);
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j >= 0 && j < matches.length && matches[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (region.pixels.length < min) continue;
    region.cx /= region.pixels.length;
    region.cy /= region.pixels.length;
    found.push(region);
  }
  return found;
}

const click = (r: Region): Submission => ({ x: Math.round(r.cx), y: Math.round(r.cy) });

/**
 * The review's script adapted to any layout: the connected regions of the prompt's colour, the
 * largest first, clicked at their centroids. Without a shape reader it can only pick among the solids
 * of that colour.
 */
export async function colourBlobs(puzzle: Puzzle): Promise<Submission[]> {
  const { image, matches } = await hueMask(puzzle);
  return regions(matches, image.width)
    .sort((a, b) => b.pixels.length - a.pixels.length)
    .map(click);
}

/**
 * The review's 3d solver: read the colour from the prompt, count each 3×2 grid cell's pixels of that
 * hue, and click the cells that match, the most pixels first. Fair to it: it clicks the centroid of
 * the matching pixels in the cell rather than the cell's geometric centre.
 */
export async function cellColour(puzzle: Puzzle): Promise<Submission[]> {
  const { image, matches } = await hueMask(puzzle);
  const cols = 3;
  const rows = 2;
  const cells = Array.from({ length: cols * rows }, () => ({ count: 0, sx: 0, sy: 0 }));
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!matches[y * image.width + x]) continue;
      const cell = cells[
        Math.min(rows - 1, Math.floor((y * rows) / image.height)) * cols +
          Math.min(cols - 1, Math.floor((x * cols) / image.width))
      ] as { count: number; sx: number; sy: number };
      cell.count++;
      cell.sx += x;
      cell.sy += y;
    }
  }
  return cells
    .filter((c) => c.count >= 80)
    .sort((a, b) => b.count - a.count)
    .map((c) => ({ x: Math.round(c.sx / c.count), y: Math.round(c.sy / c.count) }));
}

/**
 * What a simple shape classifier measures of a region, all but the first independent of its size:
 * size, bounding-box aspect, fill of the box, holes, outline length against area (compactness), how
 * the width changes from top to bottom (a point up or down), and the spread of lightness (one flat
 * face, two or three shaded ones, a gradient).
 */
function features(region: Region, image: Pixels): number[] {
  const { width } = image;
  const w = region.right - region.left + 1;
  const h = region.bottom - region.top + 1;
  const area = region.pixels.length;
  const inRegion = new Uint8Array(w * h);
  for (const i of region.pixels) {
    const x = i % width;
    const y = (i - x) / width;
    inRegion[(y - region.top) * w + (x - region.left)] = 1;
  }
  // Holes: the box's other pixels that no path from the box's border reaches.
  const outside = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let x = 0; x < w; x++) stack.push(x, (h - 1) * w + x);
  for (let y = 0; y < h; y++) stack.push(y * w, y * w + w - 1);
  while (stack.length > 0) {
    const i = stack.pop() as number;
    if (outside[i] || inRegion[i]) continue;
    outside[i] = 1;
    const x = i % w;
    if (x > 0) stack.push(i - 1);
    if (x < w - 1) stack.push(i + 1);
    if (i >= w) stack.push(i - w);
    if (i + w < w * h) stack.push(i + w);
  }
  let holes = 0;
  let perimeter = 0;
  for (let i = 0; i < w * h; i++) {
    if (!inRegion[i] && !outside[i]) holes++;
    if (inRegion[i]) {
      const x = i % w;
      if (x === 0 || x === w - 1 || i < w || i + w >= w * h) perimeter++;
      else if (!inRegion[i - 1] || !inRegion[i + 1] || !inRegion[i - w] || !inRegion[i + w]) perimeter++;
    }
  }
  const rowWidth = (from: number, to: number) => {
    let count = 0;
    for (let y = Math.floor(from * h); y < Math.max(Math.floor(from * h) + 1, Math.floor(to * h)); y++)
      for (let x = 0; x < w; x++) count += inRegion[y * w + x] as number;
    return count / Math.max(1, Math.floor(to * h) - Math.floor(from * h)) / w;
  };
  const values = region.pixels.map((i) => {
    const q = i * image.channels;
    return Math.max(image.data[q] as number, image.data[q + 1] as number, image.data[q + 2] as number) / 255;
  });
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const spread = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  return [
    Math.log(area),
    w / h,
    area / (w * h),
    holes / area,
    perimeter ** 2 / (4 * Math.PI * area),
    rowWidth(0, 0.25),
    rowWidth(0.75, 1),
    spread,
  ];
}

/** Labelled examples: the features of the region under each answer, by the prompt's shape. */
export type ShapeExamples = Map<string, number[][]>;

/**
 * "Training" as an attacker would: draw puzzles, and with their answers (a few labelled samples, or
 * a person labelling them) keep the features of the region the answer falls in, under the prompt's
 * shape. Here the answers come from the generator; the evaluation below uses fresh puzzles.
 */
export async function learnShapes(
  generate: () => Promise<Puzzle>,
  count: number,
  opening = 0,
): Promise<ShapeExamples> {
  const examples: ShapeExamples = new Map();
  for (let i = 0; i < count; i++) {
    const puzzle = await generate();
    if (puzzle.answer.kind !== '3d') throw new Error('a 3d answer');
    const { x, y } = puzzle.answer;
    const { image, matches } = await hueMask(puzzle);
    const found = regions(opened(matches, image.width, opening), image.width);
    const under = found.find((r) => r.pixels.includes(y * image.width + x));
    const region =
      under ??
      found.reduce<Region | undefined>(
        (best, r) =>
          !best || Math.hypot(r.cx - x, r.cy - y) < Math.hypot(best.cx - x, best.cy - y) ? r : best,
        undefined,
      );
    if (!region) continue;
    const { shape } = promptWords(puzzle);
    examples.set(shape, [...(examples.get(shape) ?? []), features(region, image)]);
  }
  return examples;
}

/**
 * The stronger solver: the prompt's colour regions, each measured as above, ranked by how near it is
 * (mean distance to its 3 nearest examples, each feature scaled by its spread over all examples) to
 * the labelled examples of the prompt's shape; the nearest first.
 */
export function shapeClassifier(
  examples: ShapeExamples,
  opening = 0,
): (puzzle: Puzzle) => Promise<Submission[]> {
  const all = [...examples.values()].flat();
  const dims = all[0]?.length ?? 0;
  const scale = Array.from({ length: dims }, (_, d) => {
    const column = all.map((f) => f[d] as number);
    const mean = column.reduce((a, b) => a + b, 0) / column.length;
    return Math.sqrt(column.reduce((a, b) => a + (b - mean) ** 2, 0) / column.length) || 1;
  });
  const distance = (a: number[], b: number[]) =>
    Math.sqrt(a.reduce((sum, v, d) => sum + ((v - (b[d] as number)) / (scale[d] as number)) ** 2, 0));
  return async (puzzle) => {
    const known = examples.get(promptWords(puzzle).shape) ?? [];
    const { image, matches } = await hueMask(puzzle);
    return regions(opened(matches, image.width, opening), image.width)
      .map((region) => {
        const f = features(region, image);
        const nearest = known
          .map((k) => distance(f, k))
          .sort((a, b) => a - b)
          .slice(0, 3);
        return { region, score: nearest.reduce((a, b) => a + b, 0) / Math.max(1, nearest.length) };
      })
      .sort((a, b) => a.score - b.score)
      .map(({ region }) => click(region));
  };
}
