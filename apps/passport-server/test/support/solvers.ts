import sharp from 'sharp';
import type { Puzzle, PuzzleAnswer, Submission } from '../../src/domain/challenge/puzzle';
import { dragTrace } from './challenge';

/**
 * What the solver scripts of issue 10 share: the client's images as raw pixels, the judging loop, and
 * the slide solvers (used by challenge-solvers.test.ts and by the measuring script in
 * docs/security.md, which runs them over more puzzles than a test should).
 */

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export async function pixels(dataUrl: string): Promise<Pixels> {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export const at = (p: Pixels, x: number, y: number) => (y * p.width + x) * p.channels;

export interface SolvableKind {
  generate(language: 'zh' | 'en'): Promise<Puzzle>;
  check(a: PuzzleAnswer, s: Submission): boolean;
  fatal?(a: PuzzleAnswer, s: Submission): boolean;
  maxTries?: number;
}

/** `count` fresh puzzles of a kind, one after the other. */
export async function puzzlesOf(kind: SolvableKind, count: number): Promise<Puzzle[]> {
  const puzzles: Puzzle[] = [];
  for (let i = 0; i < count; i++) puzzles.push(await kind.generate('en'));
  return puzzles;
}

/**
 * The share of `puzzles` that `solve` passes within the kind's tries (a fatal miss ends one). Solvers
 * only read a puzzle and the check is pure, so one sample can judge several solvers: each rate is still
 * a sample of that many random puzzles.
 */
export async function passRateOn(
  kind: SolvableKind,
  puzzles: readonly Puzzle[],
  solve: (puzzle: Puzzle) => Promise<Submission[]>,
): Promise<number> {
  let passed = 0;
  for (const puzzle of puzzles) {
    for (const submission of (await solve(puzzle)).slice(0, kind.maxTries ?? 3)) {
      if (kind.check(puzzle.answer, submission)) {
        passed++;
        break;
      }
      if (kind.fatal?.(puzzle.answer, submission)) break;
    }
  }
  return passed / puzzles.length;
}

/** The share of `count` fresh puzzles that `solve` passes within the kind's tries. */
export async function passRate(
  kind: SolvableKind,
  solve: (puzzle: Puzzle) => Promise<Submission[]>,
  count: number,
): Promise<number> {
  return passRateOn(kind, await puzzlesOf(kind, count), solve);
}

/** The best-scoring offsets (lowest first), at least 20 px apart, as drags: up to three tries. */
function bestDrops(scores: { x: number; score: number }[]): Submission[] {
  scores.sort((a, b) => a.score - b.score);
  const picks: number[] = [];
  for (const { x } of scores) {
    if (picks.every((p) => Math.abs(p - x) > 20)) picks.push(x);
    if (picks.length === 3) break;
  }
  return picks.map((x) => ({ x, trace: dragTrace(x) }));
}

/** The slide solver: template match of the piece against the picture darkened where the gap is. */
export async function templateMatch(puzzle: Puzzle): Promise<Submission[]> {
  const image = await pixels(puzzle.view.image);
  const piece = await pixels(puzzle.view.piece as string);
  const top = puzzle.view.piece_y as number;
  const scores: { x: number; score: number }[] = [];
  for (let x = 0; x + piece.width <= image.width; x++) {
    let sum = 0;
    let count = 0;
    for (let j = 2; j < piece.height - 2; j += 2) {
      for (let i = 2; i < piece.width - 2; i += 2) {
        const p = at(piece, i, j);
        if ((piece.data[p + 3] as number) < 250) continue;
        const q = at(image, x + i, top + j);
        for (let c = 0; c < 3; c++)
          sum += Math.abs((image.data[q + c] as number) - (piece.data[p + c] as number) * 0.5);
        count++;
      }
    }
    scores.push({ x, score: sum / Math.max(1, count) });
  }
  return bestDrops(scores);
}

/** A gap finder: the darkest piece-sized windows on the piece's row, darkest first. */
export async function darkestWindow(puzzle: Puzzle): Promise<Submission[]> {
  const image = await pixels(puzzle.view.image);
  const size = puzzle.view.piece_width as number;
  const top = puzzle.view.piece_y as number;
  const scores: { x: number; score: number }[] = [];
  for (let x = 0; x + size <= image.width; x++) {
    let sum = 0;
    for (let j = 10; j < size - 10; j += 3) {
      for (let i = 10; i < size - 10; i += 3) {
        const q = at(image, x + i, top + j);
        sum += (image.data[q] as number) + (image.data[q + 1] as number) + (image.data[q + 2] as number);
      }
    }
    scores.push({ x, score: sum });
  }
  return bestDrops(scores);
}

/** Pixel offsets (dx, dy) within the piece's box where `inside` holds and a 4-neighbour does not. */
function boundary(
  width: number,
  height: number,
  inside: (x: number, y: number) => boolean,
): [number, number][] {
  const edge: [number, number][] = [];
  const holds = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && inside(x, y);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (holds(x, y) && !(holds(x - 1, y) && holds(x + 1, y) && holds(x, y - 1) && holds(x, y + 1)))
        edge.push([x, y]);
    }
  }
  return edge;
}

/**
 * The shape matcher the docs named as the next step: the piece's outline (read from its alpha mask)
 * laid over the picture's edges (Sobel magnitude of the lightness) at each offset on the piece's row.
 * An offset scores the mean edge strength on the outline less the mean on two bands 3 px inside and
 * outside it, so a busy patch of picture does not pass for a gap: only edges that follow the outline
 * count. The best offsets first.
 */
export const outlineMatch = (puzzle: Puzzle) => matchOutline(puzzle, 'lightness');

/**
 * The same matcher on colour edges (the strongest of the three channels' Sobel magnitudes): the next
 * step against gaps that differ from the picture in colour more than in lightness.
 */
export const colourOutlineMatch = (puzzle: Puzzle) => matchOutline(puzzle, 'colour');

/** Sobel magnitude of the lightness, or the largest over the red, green and blue channels. */
function edgeMap(image: Pixels, of: 'lightness' | 'colour'): Float32Array {
  const { width, height } = image;
  const planes = (
    of === 'lightness'
      ? [[0.299, 0.587, 0.114]]
      : [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ]
  ).map((weights) => {
    const plane = new Float32Array(width * height);
    for (let i = 0; i < width * height; i++) {
      const q = i * image.channels;
      for (let c = 0; c < 3; c++)
        plane[i] = (plane[i] as number) + (weights[c] as number) * (image.data[q + c] as number);
    }
    return plane;
  });
  const edges = new Float32Array(width * height);
  for (const plane of planes) {
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const l = (dx: number, dy: number) => plane[(y + dy) * width + x + dx] as number;
        const gx = l(1, -1) + 2 * l(1, 0) + l(1, 1) - l(-1, -1) - 2 * l(-1, 0) - l(-1, 1);
        const gy = l(-1, 1) + 2 * l(0, 1) + l(1, 1) - l(-1, -1) - 2 * l(0, -1) - l(1, -1);
        edges[y * width + x] = Math.max(edges[y * width + x] as number, Math.hypot(gx, gy));
      }
    }
  }
  return edges;
}

async function matchOutline(puzzle: Puzzle, of: 'lightness' | 'colour'): Promise<Submission[]> {
  const image = await pixels(puzzle.view.image);
  const piece = await pixels(puzzle.view.piece as string);
  const top = puzzle.view.piece_y as number;
  const { width, height } = image;
  const edges = edgeMap(image, of);
  const opaque = (x: number, y: number) => (piece.data[at(piece, x, y) + 3] as number) >= 128;
  // The mask grown and shrunk by 3 px (square neighbourhood): their boundaries are the two bands.
  const grown = (x: number, y: number) => {
    for (let dy = -3; dy <= 3; dy++)
      for (let dx = -3; dx <= 3; dx++) {
        const u = x + dx;
        const v = y + dy;
        if (u >= 0 && v >= 0 && u < piece.width && v < piece.height && opaque(u, v)) return true;
      }
    return false;
  };
  const shrunk = (x: number, y: number) => {
    for (let dy = -3; dy <= 3; dy++)
      for (let dx = -3; dx <= 3; dx++) {
        const u = x + dx;
        const v = y + dy;
        if (u < 0 || v < 0 || u >= piece.width || v >= piece.height || !opaque(u, v)) return false;
      }
    return true;
  };
  const outline = boundary(piece.width, piece.height, opaque);
  const bands = [
    ...boundary(piece.width, piece.height, grown),
    ...boundary(piece.width, piece.height, shrunk),
  ];
  const mean = (points: [number, number][], x: number) => {
    let sum = 0;
    let count = 0;
    for (const [dx, dy] of points) {
      const u = x + dx;
      const v = top + dy;
      if (u < 1 || v < 1 || u >= width - 1 || v >= height - 1) continue;
      sum += edges[v * width + u] as number;
      count++;
    }
    return sum / Math.max(1, count);
  };
  const scores: { x: number; score: number }[] = [];
  for (let x = 0; x + piece.width <= width; x++) scores.push({ x, score: mean(bands, x) - mean(outline, x) });
  return bestDrops(scores);
}

/** Hue (degrees), saturation and value (0-1) of an RGB pixel. */
export function hsv(red: number, green: number, blue: number): { hue: number; sat: number; value: number } {
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const d = max - min;
  if (d === 0) return { hue: 0, sat: 0, value: max / 255 };
  let hue: number;
  if (max === red) hue = ((green - blue) / d) % 6;
  else if (max === green) hue = (blue - red) / d + 2;
  else hue = (red - green) / d + 4;
  return { hue: (hue * 60 + 360) % 360, sat: d / max, value: max / 255 };
}
