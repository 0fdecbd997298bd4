import { safeEqual } from '../../../lib/crypto';
import type { PuzzleKind } from '../puzzle';
import { between, hsl, n, pick, uniform } from '../random';
import { pngDataUrl, svgDocument, svgToPng } from '../render';
import { ALPHABET, GLYPHS } from '../stroke-font';

const WIDTH = 260;
const HEIGHT = 90;
const LENGTH = 5;

type Point = [number, number];

/** Splits a polyline into short steps, so the wave bends strokes instead of only moving corners. */
function densify(points: readonly (readonly [number, number])[]): Point[] {
  const out: Point[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const [ax, ay] = points[i] as [number, number];
    const [bx, by] = points[i + 1] as [number, number];
    const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) * 3));
    for (let s = 0; s < steps; s++) out.push([ax + ((bx - ax) * s) / steps, ay + ((by - ay) * s) / steps]);
  }
  const last = points[points.length - 1] as [number, number];
  out.push([last[0], last[1]]);
  return out;
}

/** Text: distorted characters to type back; compared case-insensitively. */
export const text: PuzzleKind = {
  subtype: 'text',
  async generate() {
    const chars = Array.from({ length: LENGTH }, () => pick([...ALPHABET]));
    const wave = { a: uniform(3, 7), f: uniform(0.02, 0.05), p: uniform(0, Math.PI * 2) };
    const warp = ([x, y]: Point): Point => [
      x + Math.sin(y * 0.09 + wave.p) * 2,
      y + wave.a * Math.sin(x * wave.f + wave.p),
    ];
    const hue = uniform(0, 360);
    const parts = [
      `<defs><linearGradient id="tbg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 40, 92)}"/><stop offset="1" stop-color="${hsl(hue + 60, 40, 82)}"/></linearGradient></defs>`,
      `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#tbg)"/>`,
    ];
    for (let i = 0; i < 90; i++) {
      parts.push(
        `<circle cx="${n(uniform(0, WIDTH))}" cy="${n(uniform(0, HEIGHT))}" r="${n(uniform(0.6, 2))}" fill="${hsl(uniform(0, 360), 50, uniform(30, 70))}"/>`,
      );
    }
    chars.forEach((char, index) => {
      const scale = uniform(7.5, 9.5);
      const angle = uniform(-0.45, 0.45);
      const skew = uniform(-0.3, 0.3);
      const ox = 22 + index * 46 + uniform(-5, 5);
      const oy = HEIGHT / 2 + uniform(-6, 6);
      const colour = hsl(uniform(0, 360), uniform(50, 80), uniform(18, 38));
      const width = n(uniform(3, 4.5));
      for (const stroke of GLYPHS[char] ?? []) {
        const points = densify(stroke).map(([gx, gy]): Point => {
          const x = (gx - 2 + skew * (gy - 3)) * scale;
          const y = (gy - 3) * scale;
          return warp([
            ox + x * Math.cos(angle) - y * Math.sin(angle),
            oy + x * Math.sin(angle) + y * Math.cos(angle),
          ]);
        });
        parts.push(
          `<polyline points="${points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`,
        );
      }
    });
    for (let i = 0; i < between(3, 5); i++) {
      const y = () => n(uniform(10, HEIGHT - 10));
      parts.push(
        `<path d="M0 ${y()} C${n(uniform(40, 120))} ${y()} ${n(uniform(140, 220))} ${y()} ${WIDTH} ${y()}" fill="none" stroke="${hsl(uniform(0, 360), 60, uniform(25, 45))}" stroke-width="${n(uniform(1.2, 2.4))}"/>`,
      );
    }
    const png = await svgToPng(svgDocument(WIDTH, HEIGHT, parts.join('')));
    return {
      view: { image: pngDataUrl(png), width: WIDTH, height: HEIGHT, length: LENGTH },
      answer: { kind: 'text', text: chars.join('') },
    };
  },
  check(answer, submission) {
    if (answer.kind !== 'text' || submission.text === undefined) return false;
    const given = submission.text.replace(/\s+/g, '').toUpperCase();
    return safeEqual(given, answer.text.toUpperCase());
  },
};
