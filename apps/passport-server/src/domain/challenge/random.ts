import { randomInt } from 'node:crypto';

/** Puzzle randomness comes from the CSPRNG too: a predictable generator would predict the answers. */

/**
 * A uniform float in [min, max), from 32 random bits. `randomInt` reads Node's buffered CSPRNG output:
 * a drawing takes thousands of these, and `randomBytes(4)` per number (a call into the CSPRNG and a
 * Buffer each) made them about 40 times dearer.
 */
export function uniform(min: number, max: number): number {
  return min + (randomInt(0, 0x1_0000_0000) / 0x1_0000_0000) * (max - min);
}

/** A uniform integer in [min, max] (both included). */
export const between = (min: number, max: number): number => randomInt(min, max + 1);

export function pick<T>(items: readonly T[]): T {
  const item = items[randomInt(0, items.length)];
  if (item === undefined) throw new TypeError('pick() needs a non-empty list');
  return item;
}

/** The items in a random order (Fisher–Yates). */
export function shuffle<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A number for SVG: at most two decimals. */
export const n = (value: number): string => String(Math.round(value * 100) / 100);

/** A random colour as hsl(), for SVG only. */
export const hsl = (h: number, s: number, l: number): string => `hsl(${n(h)} ${n(s)}% ${n(l)}%)`;
