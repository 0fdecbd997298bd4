import sharp from 'sharp';
import { between, hsl, n, uniform } from './random';

// Puzzles are drawn once and never re-read: sharp's operation cache would only hold memory.
sharp.cache(false);

/** Renders server-generated SVG (never user input) to PNG. */
export function svgToPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg), { limitInputPixels: 1_000_000 }).png({ compressionLevel: 6 }).toBuffer();
}

export const pngDataUrl = (png: Buffer): string => `data:image/png;base64,${png.toString('base64')}`;

export const svgDocument = (width: number, height: number, body: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;

/**
 * A random landscape-like scene: a sky gradient, hills, discs and polygons, and a layer of speckle,
 * all from fresh randomness, so no two images are alike and no image repeats.
 */
export function scene(width: number, height: number, id: string): string {
  const hue = uniform(0, 360);
  const parts: string[] = [
    `<defs><linearGradient id="${id}sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(hue, 60, 78)}"/><stop offset="1" stop-color="${hsl(hue + uniform(20, 60), 55, 58)}"/></linearGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#${id}sky)"/>`,
  ];
  for (let i = 0; i < between(5, 8); i++) {
    parts.push(
      `<circle cx="${n(uniform(0, width))}" cy="${n(uniform(0, height * 0.7))}" r="${n(uniform(8, height / 4))}" fill="${hsl(uniform(0, 360), uniform(40, 80), uniform(45, 80))}" opacity="${n(uniform(0.35, 0.9))}"/>`,
    );
  }
  for (let layer = 0; layer < 3; layer++) {
    const base = height * (0.55 + layer * 0.14);
    let d = `M0 ${n(height)} L0 ${n(base + uniform(-12, 12))}`;
    const steps = between(3, 6);
    for (let s = 1; s <= steps; s++) {
      const x = (width * s) / steps;
      d += ` Q${n(x - width / steps / 2)} ${n(base + uniform(-35, 25))} ${n(x)} ${n(base + uniform(-14, 14))}`;
    }
    d += ` L${n(width)} ${n(height)} Z`;
    parts.push(
      `<path d="${d}" fill="${hsl(hue + 90 + uniform(-40, 40), uniform(30, 60), 40 - layer * 8)}"/>`,
    );
  }
  for (let i = 0; i < between(4, 7); i++) {
    const cx = uniform(0, width);
    const cy = uniform(0, height);
    const r = uniform(6, 22);
    const k = between(3, 6);
    const points = Array.from({ length: k }, (_, j) => {
      const a = (j / k) * Math.PI * 2 + uniform(-0.3, 0.3);
      return `${n(cx + Math.cos(a) * r)},${n(cy + Math.sin(a) * r)}`;
    }).join(' ');
    parts.push(
      `<polygon points="${points}" fill="${hsl(uniform(0, 360), 70, uniform(35, 70))}" opacity="${n(uniform(0.5, 0.95))}"/>`,
    );
  }
  for (let i = 0; i < 160; i++) {
    parts.push(
      `<rect x="${n(uniform(0, width))}" y="${n(uniform(0, height))}" width="${n(uniform(1, 3))}" height="${n(uniform(1, 3))}" fill="${hsl(uniform(0, 360), 30, uniform(20, 95))}" opacity="${n(uniform(0.3, 0.8))}"/>`,
    );
  }
  return parts.join('');
}
