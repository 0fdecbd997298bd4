import type { PuzzleKind } from '../puzzle';
import { hsl, n, pick, shuffle, uniform } from '../random';
import { pngDataUrl, svgDocument, svgToPng } from '../render';

const WIDTH = 330;
const HEIGHT = 210;
const COUNT = 5;

const SHAPES = {
  cube: { zh: '立方体', en: 'cube' },
  cylinder: { zh: '圆柱', en: 'cylinder' },
  cone: { zh: '圆锥', en: 'cone' },
  pyramid: { zh: '金字塔', en: 'pyramid' },
  sphere: { zh: '球', en: 'sphere' },
} as const;
type Shape = keyof typeof SHAPES;

const COLOURS = {
  red: { zh: '红色', en: 'red', hue: 2 },
  blue: { zh: '蓝色', en: 'blue', hue: 220 },
  green: { zh: '绿色', en: 'green', hue: 125 },
  yellow: { zh: '黄色', en: 'yellow', hue: 50 },
  purple: { zh: '紫色', en: 'purple', hue: 280 },
} as const;
type Colour = keyof typeof COLOURS;

/** Three shades of one hue: lit top, side, shadowed side; jittered so colours are never exact. */
function shades(colour: Colour) {
  const h = COLOURS[colour].hue + uniform(-6, 6);
  const s = uniform(65, 85);
  return {
    top: hsl(h, s, uniform(66, 72)),
    left: hsl(h, s, uniform(48, 54)),
    right: hsl(h, s, uniform(32, 38)),
  };
}

let gradientId = 0;
/** A gradient id unique within one image. */
function nextId(): string {
  gradientId = (gradientId + 1) % 1_000_000;
  return `g${gradientId}`;
}

/** One isometric solid centred on (cx, cy) with size a. */
function draw(shape: Shape, colour: Colour, cx: number, cy: number, a: number): string {
  const c = shades(colour);
  const stroke = 'stroke="rgba(0,0,0,0.35)" stroke-width="1"';
  const p = (points: [number, number][]) => points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
  const w = a * 0.87;
  switch (shape) {
    case 'cube':
      return [
        `<polygon points="${p([
          [cx, cy - a],
          [cx + w, cy - a / 2],
          [cx, cy],
          [cx - w, cy - a / 2],
        ])}" fill="${c.top}" ${stroke}/>`,
        `<polygon points="${p([
          [cx - w, cy - a / 2],
          [cx, cy],
          [cx, cy + a],
          [cx - w, cy + a / 2],
        ])}" fill="${c.left}" ${stroke}/>`,
        `<polygon points="${p([
          [cx, cy],
          [cx + w, cy - a / 2],
          [cx + w, cy + a / 2],
          [cx, cy + a],
        ])}" fill="${c.right}" ${stroke}/>`,
      ].join('');
    case 'cylinder': {
      const rx = a * 0.75;
      const ry = a * 0.28;
      const top = cy - a * 0.7;
      const bottom = cy + a * 0.7;
      const id = nextId();
      return [
        `<defs><linearGradient id="${id}"><stop offset="0" stop-color="${c.left}"/><stop offset="1" stop-color="${c.right}"/></linearGradient></defs>`,
        `<path d="M${n(cx - rx)} ${n(top)} L${n(cx - rx)} ${n(bottom)} A${n(rx)} ${n(ry)} 0 0 0 ${n(cx + rx)} ${n(bottom)} L${n(cx + rx)} ${n(top)} Z" fill="url(#${id})" ${stroke}/>`,
        `<ellipse cx="${n(cx)}" cy="${n(top)}" rx="${n(rx)}" ry="${n(ry)}" fill="${c.top}" ${stroke}/>`,
      ].join('');
    }
    case 'cone': {
      const rx = a * 0.8;
      const ry = a * 0.28;
      const base = cy + a * 0.7;
      return [
        `<path d="M${n(cx)} ${n(cy - a)} L${n(cx - rx)} ${n(base)} A${n(rx)} ${n(ry)} 0 0 0 ${n(cx + rx)} ${n(base)} Z" fill="${c.left}" ${stroke}/>`,
        `<path d="M${n(cx)} ${n(cy - a)} L${n(cx + rx * 0.25)} ${n(base + ry * 0.95)} A${n(rx)} ${n(ry)} 0 0 0 ${n(cx + rx)} ${n(base)} Z" fill="${c.right}"/>`,
      ].join('');
    }
    case 'pyramid': {
      const apex: [number, number] = [cx, cy - a];
      const left: [number, number] = [cx - a, cy + a * 0.45];
      const front: [number, number] = [cx - a * 0.15, cy + a * 0.75];
      const right: [number, number] = [cx + a, cy + a * 0.4];
      return [
        `<polygon points="${p([apex, left, front])}" fill="${c.left}" ${stroke}/>`,
        `<polygon points="${p([apex, front, right])}" fill="${c.right}" ${stroke}/>`,
      ].join('');
    }
    case 'sphere': {
      const id = nextId();
      return [
        `<defs><radialGradient id="${id}" cx="0.35" cy="0.35" r="0.7"><stop offset="0" stop-color="${c.top}"/><stop offset="0.6" stop-color="${c.left}"/><stop offset="1" stop-color="${c.right}"/></radialGradient></defs>`,
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(a * 0.85)}" fill="url(#${id})" ${stroke}/>`,
      ].join('');
    }
  }
}

/**
 * 3d: several shaded solids; click the one the prompt names (a colour and a shape). Every other
 * solid differs from it in colour, shape or both. Answer: the target's centre and a hit radius.
 */
export const threeD: PuzzleKind = {
  subtype: '3d',
  async generate(language) {
    const shapes = Object.keys(SHAPES) as Shape[];
    const colours = Object.keys(COLOURS) as Colour[];
    const target = { shape: pick(shapes), colour: pick(colours) };
    const pairs = shuffle(shapes.flatMap((shape) => colours.map((colour) => ({ shape, colour })))).filter(
      (d) => d.shape !== target.shape || d.colour !== target.colour,
    );
    // Distractors that share the target's colour or shape make the prompt matter.
    const near = pairs.filter((d) => d.shape === target.shape || d.colour === target.colour).slice(0, 2);
    const rest = pairs.filter((d) => !near.includes(d)).slice(0, COUNT - 1 - near.length);
    const solids = shuffle([target, ...near, ...rest]);
    const cells = shuffle([0, 1, 2, 3, 4, 5]).slice(0, COUNT);
    const hue = uniform(0, 360);
    const parts = [
      `<rect width="${WIDTH}" height="${HEIGHT}" fill="${hsl(hue, 20, 93)}"/>`,
      ...Array.from(
        { length: 60 },
        () =>
          `<circle cx="${n(uniform(0, WIDTH))}" cy="${n(uniform(0, HEIGHT))}" r="${n(uniform(1, 4))}" fill="${hsl(uniform(0, 360), 25, uniform(60, 85))}"/>`,
      ),
    ];
    let answer = { x: 0, y: 0, r: 0 };
    solids.forEach((solid, i) => {
      const cell = cells[i] as number;
      const a = uniform(24, 30);
      const cx = (cell % 3) * (WIDTH / 3) + WIDTH / 6 + uniform(-16, 16);
      const cy = Math.floor(cell / 3) * (HEIGHT / 2) + HEIGHT / 4 + uniform(-8, 8);
      parts.push(draw(solid.shape, solid.colour, cx, cy, a));
      if (solid === target) answer = { x: Math.round(cx), y: Math.round(cy), r: Math.round(a * 1.1) };
    });
    const png = await svgToPng(svgDocument(WIDTH, HEIGHT, parts.join('')));
    const prompts = {
      zh: `请点击${COLOURS[target.colour].zh}的${SHAPES[target.shape].zh}`,
      en: `Click the ${COLOURS[target.colour].en} ${SHAPES[target.shape].en}`,
    };
    return {
      view: { image: pngDataUrl(png), width: WIDTH, height: HEIGHT, prompt: prompts[language] },
      answer: { kind: '3d', ...answer },
      prompts,
    };
  },
  check(answer, submission) {
    if (answer.kind !== '3d' || submission.x === undefined || submission.y === undefined) return false;
    return Math.hypot(submission.x - answer.x, submission.y - answer.y) <= answer.r;
  },
};
