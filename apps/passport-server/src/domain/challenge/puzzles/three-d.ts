import type { PuzzleKind } from '../puzzle';
import { hsl, n, pick, shuffle, uniform } from '../random';
import { pngDataUrl, svgDocument, svgToPng } from '../render';

const WIDTH = 330;
const HEIGHT = 210;
/**
 * The layout: four staggered rows of slots (6, 5, 6, 5), jittered, so neighbours touch and a nearer
 * solid hides part of the one behind it. 21 solids take 21 of the 22 slots.
 */
const SLOTS: [number, number][] = [0, 1, 2, 3].flatMap((row) =>
  Array.from({ length: row % 2 === 1 ? 5 : 6 }, (_, i): [number, number] => [
    (i + (row % 2 === 1 ? 1 : 0.5)) * (WIDTH / 6),
    HEIGHT / 8 + (row * HEIGHT) / 4,
  ]),
);
const COUNT = 21;
/** Flat splotches anywhere behind the solids, half in the prompt's colour, besides one per solid. */
const SPLOTCHES = 8;

const SHAPES = {
  cube: { zh: '立方体', en: 'cube' },
  cylinder: { zh: '圆柱', en: 'cylinder' },
  cone: { zh: '圆锥', en: 'cone' },
  pyramid: { zh: '金字塔', en: 'pyramid' },
  sphere: { zh: '球', en: 'sphere' },
  ring: { zh: '圆环', en: 'ring' },
  prism: { zh: '三棱柱', en: 'prism' },
  diamond: { zh: '八面体', en: 'diamond' },
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

/**
 * Three shades of one hue: lit, side, shadowed; each solid its own hue jitter, saturation and
 * lightness, so neither a colour nor a shade is exact or tells one solid from another.
 */
function shades(colour: Colour) {
  const h = COLOURS[colour].hue + uniform(-7, 7);
  const s = uniform(55, 85);
  const l = uniform(-6, 6);
  return {
    top: hsl(h, s, uniform(64, 72) + l),
    left: hsl(h, s, uniform(46, 54) + l),
    right: hsl(h, s, uniform(30, 38) + l),
  };
}

let gradientId = 0;
/** A gradient id unique within one image. */
function nextId(): string {
  gradientId = (gradientId + 1) % 1_000_000;
  return `g${gradientId}`;
}

type Point = [number, number];

/**
 * A flat splotch behind the solids: an irregular rounded outline, one flat fill of a colour's hue at a
 * shade a solid could have, no outline stroke. A person sees paint behind the solids (no faces, no
 * shading); the colour's pixels now run from solid to splotch to solid.
 */
function splotch(colour: Colour, cx: number, cy: number, size: number): string {
  const corners = 7;
  const points = Array.from({ length: corners }, (_, i): Point => {
    const angle = (i / corners) * 2 * Math.PI + uniform(-0.3, 0.3);
    const r = size * uniform(0.55, 1.2);
    return [cx + r * Math.cos(angle), cy + r * Math.sin(angle) * uniform(0.5, 1)];
  });
  // Through the midpoints, each corner a control point: a smooth closed curve.
  const mid = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const start = mid(points[corners - 1] as Point, points[0] as Point);
  let d = `M${n(start[0])} ${n(start[1])}`;
  points.forEach((p, i) => {
    const m = mid(p, points[(i + 1) % corners] as Point);
    d += ` Q${n(p[0])} ${n(p[1])} ${n(m[0])} ${n(m[1])}`;
  });
  return `<path d="${d} Z" fill="${paint(colour)}"/>`;
}

/** A flat shade of a colour, in the range of the solids' faces. */
const paint = (colour: Colour) => hsl(COLOURS[colour].hue + uniform(-7, 7), uniform(55, 85), uniform(34, 66));

/** A flat band of paint from one point to another, bowed, with round ends. */
function ribbon(colour: Colour, [x1, y1]: Point, [x2, y2]: Point): string {
  const bow = uniform(-0.3, 0.3);
  const qx = (x1 + x2) / 2 - (y2 - y1) * bow;
  const qy = (y1 + y2) / 2 + (x2 - x1) * bow;
  return `<path d="M${n(x1)} ${n(y1)} Q${n(qx)} ${n(qy)} ${n(x2)} ${n(y2)}" fill="none" stroke="${paint(colour)}" stroke-width="${n(uniform(7, 13))}" stroke-linecap="round"/>`;
}

/**
 * One solid centred on (cx, cy) with size a. `light` is -1 when the light comes from the left, 1 from
 * the right: the lit and the shadowed sides swap, the sphere's highlight moves.
 */
function draw(shape: Shape, colour: Colour, cx: number, cy: number, a: number, light: -1 | 1): string {
  const shade = shades(colour);
  const c = light < 0 ? shade : { ...shade, left: shade.right, right: shade.left };
  const stroke = 'stroke="rgba(0,0,0,0.35)" stroke-width="1"';
  const p = (points: Point[]) => points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
  const polygon = (points: Point[], fill: string) =>
    `<polygon points="${p(points)}" fill="${fill}" ${stroke}/>`;
  const w = a * 0.87;
  switch (shape) {
    case 'cube':
      return [
        polygon(
          [
            [cx, cy - a],
            [cx + w, cy - a / 2],
            [cx, cy],
            [cx - w, cy - a / 2],
          ],
          c.top,
        ),
        polygon(
          [
            [cx - w, cy - a / 2],
            [cx, cy],
            [cx, cy + a],
            [cx - w, cy + a / 2],
          ],
          c.left,
        ),
        polygon(
          [
            [cx, cy],
            [cx + w, cy - a / 2],
            [cx + w, cy + a / 2],
            [cx, cy + a],
          ],
          c.right,
        ),
      ].join('');
    case 'cylinder': {
      const rx = a * 0.72;
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
      const id = nextId();
      return [
        `<defs><linearGradient id="${id}"><stop offset="0" stop-color="${c.left}"/><stop offset="1" stop-color="${c.right}"/></linearGradient></defs>`,
        `<path d="M${n(cx)} ${n(cy - a)} L${n(cx - rx)} ${n(base)} A${n(rx)} ${n(ry)} 0 0 0 ${n(cx + rx)} ${n(base)} Z" fill="url(#${id})" ${stroke}/>`,
      ].join('');
    }
    case 'pyramid': {
      const apex: Point = [cx, cy - a];
      const left: Point = [cx - a, cy + a * 0.45];
      const front: Point = [cx - a * 0.15, cy + a * 0.75];
      const right: Point = [cx + a, cy + a * 0.4];
      return [polygon([apex, left, front], c.left), polygon([apex, front, right], c.right)].join('');
    }
    case 'sphere': {
      const id = nextId();
      const fx = light < 0 ? 0.35 : 0.65;
      return [
        `<defs><radialGradient id="${id}" cx="${fx}" cy="0.35" r="0.7"><stop offset="0" stop-color="${c.top}"/><stop offset="0.6" stop-color="${shade.left}"/><stop offset="1" stop-color="${shade.right}"/></radialGradient></defs>`,
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(a * 0.82)}" fill="url(#${id})" ${stroke}/>`,
      ].join('');
    }
    case 'ring': {
      // A torus seen from above at a slant: an outer ellipse with a hole, its inner wall in shadow.
      const id = nextId();
      const rx = a * 0.92;
      const ry = a * 0.55;
      const hx = a * 0.4;
      const hy = a * 0.18;
      const hc = cy - a * 0.08;
      const ring = `M${n(cx - rx)} ${n(cy)} A${n(rx)} ${n(ry)} 0 1 0 ${n(cx + rx)} ${n(cy)} A${n(rx)} ${n(ry)} 0 1 0 ${n(cx - rx)} ${n(cy)} Z M${n(cx - hx)} ${n(hc)} A${n(hx)} ${n(hy)} 0 1 0 ${n(cx + hx)} ${n(hc)} A${n(hx)} ${n(hy)} 0 1 0 ${n(cx - hx)} ${n(hc)} Z`;
      return [
        `<defs><linearGradient id="${id}" x1="0" y1="0" x2="${light < 0 ? 0.4 : -0.4}" y2="1"><stop offset="0" stop-color="${c.top}"/><stop offset="0.55" stop-color="${c.left}"/><stop offset="1" stop-color="${c.right}"/></linearGradient></defs>`,
        `<path d="${ring}" fill="url(#${id})" fill-rule="evenodd" ${stroke}/>`,
        `<path d="M${n(cx - hx)} ${n(hc)} A${n(hx)} ${n(hy)} 0 0 1 ${n(cx + hx)} ${n(hc)} A${n(hx)} ${n(hy * 0.45)} 0 0 0 ${n(cx - hx)} ${n(hc)} Z" fill="${shade.right}"/>`,
      ].join('');
    }
    case 'prism': {
      // A triangular prism lying along the depth: its end face, then the two slopes behind it.
      const d: Point = [a * 0.95 * -light, -a * 0.5];
      const fx = cx - d[0] / 2;
      const fy = cy - d[1] / 2;
      const l: Point = [fx - a * 0.6, fy + a * 0.45];
      const r: Point = [fx + a * 0.6, fy + a * 0.45];
      const t: Point = [fx, fy - a * 0.5];
      const back = (q: Point): Point => [q[0] + d[0], q[1] + d[1]];
      const near = light < 0 ? l : r;
      const far = light < 0 ? r : l;
      return [
        polygon([t, back(t), back(near), near], c.right),
        polygon([t, back(t), back(far), far], c.top),
        polygon([l, r, t], c.left),
      ].join('');
    }
    case 'diamond': {
      // An octahedron standing on a point: four visible faces around its equator.
      const top: Point = [cx, cy - a];
      const bottom: Point = [cx, cy + a];
      const left: Point = [cx - a * 0.72, cy - a * 0.05];
      const front: Point = [cx - a * 0.12 * light, cy + a * 0.18];
      const right: Point = [cx + a * 0.72, cy - a * 0.05];
      return [
        polygon([top, left, front], light < 0 ? c.top : c.left),
        polygon([top, front, right], light < 0 ? c.left : c.top),
        polygon([bottom, left, front], c.left),
        polygon([bottom, front, right], c.right),
      ].join('');
    }
  }
}

/**
 * 3d: shaded solids; click the one the prompt names (a colour and a shape). Every other shape is there
 * two or three times in the target's colour, so the colour alone picks nothing; one more solid has the
 * target's shape in another colour, so the shape alone does not either. Flat paint of each solid's
 * colour (bands and splotches, no outline, no shading) joins it to its two nearest neighbours: a script
 * that cuts the picture into regions of a colour gets several solids and paint per region, whose
 * outline and centre are no solid's. A person reads the solids by their outlines and shaded faces.
 * One try per picture: a person who reads the shape needs one. Answer: the target's centre and a hit
 * radius.
 */
export const threeD: PuzzleKind = {
  subtype: '3d',
  // A script that finds every solid but reads no shape picks one of the 20 in the prompt's colour:
  // one try keeps that guess at 1 in 20 per picture (and a miss draws a new picture, 5 per challenge).
  maxTries: 1,
  async generate(language) {
    const shapes = Object.keys(SHAPES) as Shape[];
    const colours = Object.keys(COLOURS) as Colour[];
    const target = { shape: pick(shapes), colour: pick(colours) };
    const decoy = { shape: target.shape, colour: pick(colours.filter((c) => c !== target.colour)) };
    // Every other shape twice in the target's colour, then five of them a third time: the colour is
    // shared by all but one solid, and the target's shape by it and the decoy only.
    const others = shapes.filter((s) => s !== target.shape);
    const solids = shuffle([
      target,
      decoy,
      ...[...others, ...others, ...shuffle(others)]
        .slice(0, COUNT - 2)
        .map((shape) => ({ shape, colour: target.colour })),
    ]);
    const slots = shuffle(SLOTS).slice(0, solids.length);
    const light = pick([-1, 1] as const);
    const hue = uniform(0, 360);
    const parts = [
      `<rect width="${WIDTH}" height="${HEIGHT}" fill="${hsl(hue, 20, 93)}"/>`,
      ...Array.from(
        { length: 60 },
        () =>
          `<circle cx="${n(uniform(0, WIDTH))}" cy="${n(uniform(0, HEIGHT))}" r="${n(uniform(1, 4))}" fill="${hsl(uniform(0, 360), 25, uniform(60, 85))}"/>`,
      ),
      ...Array.from({ length: SPLOTCHES }, (_, i) =>
        splotch(
          i < SPLOTCHES / 2 ? target.colour : pick(colours.filter((c) => c !== target.colour)),
          uniform(0, WIDTH),
          uniform(0, HEIGHT),
          uniform(14, 32),
        ),
      ),
    ];
    const placed = solids.map((solid, i) => {
      const [x, y] = slots[i] as [number, number];
      const a = uniform(15, 19);
      const cx = x + uniform(-7, 7);
      const cy = y + uniform(-7, 7);
      return {
        solid,
        a,
        cx: Math.min(WIDTH - a, Math.max(a, cx)),
        cy: Math.min(HEIGHT - a, Math.max(a, cy)),
      };
    });
    // Behind every solid, splotches of its colour reach towards its two nearest neighbours, so a
    // region of the colour is several solids and the paint between them, in outlines no solid has.
    for (const { solid, a, cx, cy } of placed) {
      const nearest = placed
        .filter((o) => o.solid !== solid)
        .sort((p, q) => Math.hypot(p.cx - cx, p.cy - cy) - Math.hypot(q.cx - cx, q.cy - cy))
        .slice(0, 2);
      for (const { cx: nx, cy: ny } of nearest) {
        parts.push(ribbon(solid.colour, [cx, cy], [nx, ny]));
        const t = uniform(0.35, 0.65);
        parts.push(splotch(solid.colour, cx + (nx - cx) * t, cy + (ny - cy) * t, a * uniform(0.95, 1.3)));
      }
    }
    // Back to front: a lower solid is nearer and may hide the edge of one behind it.
    placed.sort((x, y) => x.cy - y.cy);
    let answer = { x: 0, y: 0, r: 0 };
    for (const { solid, a, cx, cy } of placed) {
      // A tilt of up to 18° either way: the outline's box and fill change, the solid reads the same.
      parts.push(
        `<g transform="rotate(${n(uniform(-18, 18))} ${n(cx)} ${n(cy)})">${draw(solid.shape, solid.colour, cx, cy, a, light)}</g>`,
      );
      if (solid === target) answer = { x: Math.round(cx), y: Math.round(cy), r: Math.round(a * 1.1) };
    }
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
