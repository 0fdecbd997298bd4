/**
 * The drag trace of a slide answer: `[[x, y, t], …]`, x and y in image pixels, t in ms since the drag
 * began. A person's drag (or key presses) leaves several points with rising time; a script that sets
 * the answer in one step does not. This raises the bar a little; a bot can still forge a trace.
 */
export interface TraceRules {
  /** Where the piece must end (the submitted x). */
  endX: number;
  /** How far the last point may be from endX. */
  tolerance: number;
}

export const TRACE_MAX_POINTS = 600;
const MIN_POINTS = 5;
const MIN_DURATION_MS = 120;
const MAX_DURATION_MS = 10 * 60_000;

/** Parses a trace; null when it is not a list of finite [x, y, t] triples. */
export function parseTrace(text: string | undefined): [number, number, number][] | null {
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(raw) || raw.length > TRACE_MAX_POINTS) return null;
  const points: [number, number, number][] = [];
  for (const point of raw) {
    if (!Array.isArray(point) || point.length !== 3) return null;
    const [x, y, t] = point as unknown[];
    if (![x, y, t].every((v) => typeof v === 'number' && Number.isFinite(v))) return null;
    points.push([x as number, y as number, t as number]);
  }
  return points;
}

/** True when the trace looks like a drag that ends where the answer says. */
export function plausibleTrace(text: string | undefined, rules: TraceRules): boolean {
  const points = parseTrace(text);
  if (!points || points.length < MIN_POINTS) return false;
  const first = points[0] as [number, number, number];
  const last = points[points.length - 1] as [number, number, number];
  const duration = last[2] - first[2];
  if (duration < MIN_DURATION_MS || duration > MAX_DURATION_MS) return false;
  for (let i = 1; i < points.length; i++) {
    if ((points[i] as [number, number, number])[2] <= (points[i - 1] as [number, number, number])[2])
      return false;
  }
  // The piece starts at the left edge and ends at the submitted position.
  if (Math.abs(first[0]) > 12 || Math.abs(last[0] - rules.endX) > rules.tolerance) return false;
  const distance = Math.abs(last[0] - first[0]);
  const xs = new Set(points.map((p) => Math.round(p[0])));
  if (xs.size < Math.min(MIN_POINTS - 1, distance)) return false;
  // A teleport: most of the way covered in one step.
  let largest = 0;
  for (let i = 1; i < points.length; i++) {
    const step = (points[i] as [number, number, number])[0] - (points[i - 1] as [number, number, number])[0];
    largest = Math.max(largest, Math.abs(step));
  }
  if (distance >= 20 && largest > distance * 0.5) return false;
  return !machineEven(points);
}

/** Coefficient of variation (spread over mean) of a list of positive steps. */
function spread(steps: number[]): number {
  const mean = steps.reduce((a, b) => a + b, 0) / steps.length;
  if (mean <= 0) return 0;
  const variance = steps.reduce((a, b) => a + (b - mean) ** 2, 0) / steps.length;
  return Math.sqrt(variance) / mean;
}

/**
 * A forged trace made by interpolation: every step the same distance and the same time apart. A hand
 * speeds up and slows down; a person on the keyboard moves in equal steps but not at equal times.
 */
export function machineEven(points: readonly (readonly [number, number, number])[]): boolean {
  if (points.length < 6) return false;
  const dx: number[] = [];
  const dt: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as readonly [number, number, number];
    const b = points[i] as readonly [number, number, number];
    dx.push(Math.abs(b[0] - a[0]));
    dt.push(b[2] - a[2]);
  }
  return spread(dx) < 0.05 && spread(dt) < 0.05;
}
