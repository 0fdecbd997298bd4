import type { Puzzle, Submission } from '../../src/domain/challenge/puzzle';
import { at, hsv, pixels } from './solvers';

/** A whirl solver of our own, beside the review's sky centroid (challenge-solvers.test.ts). */

interface Blob {
  count: number;
  cx: number;
  cy: number;
  /** Second moments about the centroid. */
  xx: number;
  yy: number;
  xy: number;
}

function blobs(mask: Uint8Array, width: number, min: number): Blob[] {
  const seen = new Uint8Array(mask.length);
  const found: Blob[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const points: [number, number][] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const x = i % width;
      points.push([x, (i - x) / width]);
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j >= 0 && j < mask.length && mask[j] && !seen[j]) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (points.length < min) continue;
    const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
    const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
    const blob: Blob = { count: points.length, cx, cy, xx: 0, yy: 0, xy: 0 };
    for (const [x, y] of points) {
      blob.xx += (x - cx) ** 2;
      blob.yy += (y - cy) ** 2;
      blob.xy += (x - cx) * (y - cy);
    }
    found.push(blob);
  }
  return found;
}

/**
 * A whirl solver that reads what stands in the picture rather than its light: the door and the tree
 * trunks are upright brown rectangles (one hue, a narrow lightness), so the long axes of the brown
 * regions give the vertical up to a half turn; the lit window (a pale yellow) sits above the door, so
 * the side of the axis towards it is up. One answer: the turn back to that up.
 */
export async function uprightAxis(puzzle: Puzzle): Promise<Submission[]> {
  const image = await pixels(puzzle.view.image);
  const { width, height } = image;
  const c = width / 2;
  const brown = new Uint8Array(width * height);
  const yellow = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((x - c) ** 2 + (y - c) ** 2 > (c - 4) ** 2) continue;
      const q = at(image, x, y);
      const { hue, sat, value } = hsv(
        image.data[q] as number,
        image.data[q + 1] as number,
        image.data[q + 2] as number,
      );
      if (hue >= 10 && hue <= 40 && sat >= 0.3 && sat <= 0.8 && value >= 0.1 && value <= 0.55)
        brown[y * width + x] = 1;
      if (hue >= 40 && hue <= 62 && sat >= 0.35 && value >= 0.7) yellow[y * width + x] = 1;
    }
  }
  // The axis: the doubled-angle mean of the elongated brown regions' long axes, by their size.
  let sx = 0;
  let sy = 0;
  const upright = blobs(brown, width, 25).filter((b) => {
    const spread = Math.hypot(b.xx - b.yy, 2 * b.xy);
    const major = (b.xx + b.yy + spread) / 2;
    const minor = (b.xx + b.yy - spread) / 2;
    return minor > 0 && major / minor >= 2.5;
  });
  for (const b of upright) {
    const theta = Math.atan2(2 * b.xy, b.xx - b.yy); // twice the long axis's angle from the x axis
    sx += b.count * Math.cos(theta);
    sy += b.count * Math.sin(theta);
  }
  if (upright.length === 0) return [];
  const axis = Math.atan2(sy, sx) / 2;
  const [ax, ay] = [Math.cos(axis), Math.sin(axis)];
  // Up: the side of the axis the window is on, seen from the largest brown region (the door, or a
  // trunk standing on the same ground); without a window, a coin toss.
  const windows = blobs(yellow, width, 20).sort((a, b) => b.count - a.count);
  const door = upright.sort((a, b) => b.count - a.count)[0] as Blob;
  const lit = windows[0];
  const sign = lit ? Math.sign((lit.cx - door.cx) * ax + (lit.cy - door.cy) * ay) || 1 : 1;
  const [ux, uy] = [ax * sign, ay * sign];
  const turned = ((Math.atan2(ux, -uy) * 180) / Math.PI + 360) % 360;
  return [{ angle: Math.round((360 - turned) % 360) }];
}
