import { PassportError } from '../../errors';
import type { CaptchaSubtype } from '../../protocol';
import type { Puzzle } from './puzzle';
import { leaseRenderProcess } from './render-process';

/**
 * Pre-rendered puzzles, drawn by one render lane. A render (the SVG scene in JavaScript, then sharp
 * on libuv's thread pool, where argon2 hashes too) runs in the render process at the lowest CPU
 * priority (./render-process.ts), so it takes only CPU that sign-ins leave idle. At most `lanes`
 * renders are asked for at once, whatever the demand; a request takes a ready puzzle (no render on its
 * path) and the lane refills behind it. When the pool is empty, a bounded number of requests wait for
 * the lane; the rest are refused with CHALLENGE_BUSY, so the flood waits, never the sign-ins.
 *
 * The pool is per instance and holds only unseen puzzles: a drawn puzzle's answer goes to the store, so
 * any instance can check it.
 */
export interface PuzzlePool {
  take(kind: CaptchaSubtype): Promise<Puzzle>;
  /**
   * Whether a draw of this kind would be served now (a ready puzzle, or room to wait for the lane):
   * checked before any store access, so a flood is turned away in memory, at no database write.
   */
  admits(kind: CaptchaSubtype): boolean;
  /** Starts filling a kind's reserve (the risk rules call it when they demand a challenge). */
  warm(kind: CaptchaSubtype): void;
  /** Renders done since start (for tests and the bench). */
  readonly rendered: number;
  /** Per kind: renders done and their mean wall time in ms (the bench's render cost). */
  stats(): Record<string, { count: number; meanMs: number }>;
  /** Waits for every render in flight (tests; closing). */
  idle(): Promise<void>;
  /** Gives up the pool's lease on the render process (the server closes); the last lease stops it. */
  close(): Promise<void>;
}

export interface PoolOptions {
  /** Ready puzzles kept per kind. 0 renders on demand (still through the lane). */
  size: number;
  /** Renders at once. */
  lanes: number;
  /** Requests that may wait for an empty kind before CHALLENGE_BUSY. */
  maxWaiting: number;
  /**
   * The share of its time a lane may spend rendering (0–1]: after a render that took t ms the lane rests
   * t × (1/share − 1) ms before the next. 1 renders back to back.
   */
  share?: number;
  /** The render process's niceness while it renders for this pool (19, the lowest priority, by default). */
  niceness?: number;
  /** The renderer (tests may hand in a counting one); the shared render process by default. */
  render?: (kind: CaptchaSubtype) => Promise<Puzzle>;
}

export function createPuzzlePool(options: PoolOptions): PuzzlePool {
  const share = options.share ?? 1;
  const { render, release } = options.render
    ? { render: options.render, release: async () => {} }
    : leaseRenderProcess(options.niceness);
  const ready = new Map<CaptchaSubtype, Puzzle[]>();
  const waiting = new Map<CaptchaSubtype, { resolve(p: Puzzle): void; reject(e: unknown): void }[]>();
  /** Renders queued or running per kind, so a refill is not scheduled twice. */
  const pending = new Map<CaptchaSubtype, number>();
  const queue: CaptchaSubtype[] = [];
  let running = 0;
  let rendered = 0;
  let waiters = 0;
  let idleWaiters: (() => void)[] = [];
  const timing = new Map<CaptchaSubtype, { count: number; ms: number }>();

  const listOf = <T>(map: Map<CaptchaSubtype, T[]>, kind: CaptchaSubtype): T[] => {
    const list = map.get(kind) ?? [];
    if (!map.has(kind)) map.set(kind, list);
    return list;
  };

  function pump(): void {
    while (running < Math.max(1, options.lanes) && queue.length) {
      const kind = queue.shift() as CaptchaSubtype;
      running++;
      const started = performance.now();
      render(kind)
        .then(
          (puzzle) => {
            rendered++;
            const t = timing.get(kind) ?? { count: 0, ms: 0 };
            timing.set(kind, { count: t.count + 1, ms: t.ms + performance.now() - started });
            const waiter = listOf(waiting, kind).shift();
            if (waiter) {
              waiters--;
              waiter.resolve(puzzle);
            } else listOf(ready, kind).push(puzzle);
          },
          (error) => {
            const waiter = listOf(waiting, kind).shift();
            if (waiter) {
              waiters--;
              waiter.reject(error);
            }
          },
        )
        .finally(async () => {
          // A lane that rendered t ms rests in proportion before its next render: even a flood that
          // keeps the pool empty gets at most `share` of a lane's time, so the render process (nice as
          // it is) cannot keep a core busy beside the event loop (docs/benchmarks.md, the flood).
          const rest = (performance.now() - started) * (1 / Math.min(1, Math.max(0.01, share)) - 1);
          if (rest >= 1) await new Promise((resolve) => setTimeout(resolve, rest).unref());
          running--;
          pending.set(kind, (pending.get(kind) ?? 1) - 1);
          pump();
          if (!running && !queue.length) {
            const list = idleWaiters;
            idleWaiters = [];
            for (const done of list) done();
          }
        });
    }
  }

  function schedule(kind: CaptchaSubtype): void {
    pending.set(kind, (pending.get(kind) ?? 0) + 1);
    queue.push(kind);
    pump();
  }

  /** Keeps `size` puzzles ready or coming, plus one per waiting request. */
  function refill(kind: CaptchaSubtype): void {
    const want = options.size + listOf(waiting, kind).length;
    while (listOf(ready, kind).length + (pending.get(kind) ?? 0) < want) schedule(kind);
  }

  return {
    get rendered() {
      return rendered;
    },
    stats() {
      return Object.fromEntries(
        [...timing].map(([kind, t]) => [kind, { count: t.count, meanMs: t.ms / Math.max(1, t.count) }]),
      );
    },
    warm(kind) {
      refill(kind);
    },
    admits(kind) {
      return listOf(ready, kind).length > 0 || waiters < options.maxWaiting;
    },
    async take(kind) {
      const puzzle = listOf(ready, kind).shift();
      if (puzzle) {
        refill(kind);
        return puzzle;
      }
      if (waiters >= options.maxWaiting) throw new PassportError('challengeBusy');
      waiters++;
      const promise = new Promise<Puzzle>((resolve, reject) =>
        listOf(waiting, kind).push({ resolve, reject }),
      );
      refill(kind);
      return promise;
    },
    idle() {
      if (!running && !queue.length) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    close() {
      return release();
    },
  };
}
