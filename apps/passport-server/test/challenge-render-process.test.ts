import { getPriority } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPuzzlePool, type PuzzlePool } from '../src/domain/challenge/pool';
import { puzzleKinds } from '../src/domain/challenge/puzzles/index';
import {
  leaseRenderProcess,
  RENDER_NICENESS,
  RESTART_DELAY_MS,
  renderProcessId,
} from '../src/domain/challenge/render-process';
import { PassportError } from '../src/errors';
import { type CaptchaSubtype, ErrorCode } from '../src/protocol';

/**
 * Issue 10, item 3: puzzles are rendered in one low-priority process per server process, shared by
 * every server instance in it, so a puzzle flood takes only idle CPU from sign-ins.
 */

const pools: PuzzlePool[] = [];
const pool = (niceness?: number) => {
  const made = createPuzzlePool({ size: 0, lanes: 1, maxWaiting: 3, niceness });
  pools.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/**
 * The render process's niceness, looked at while a render of `drawn` is in flight, not after it: at 19
 * a render waits for CPU nobody else wants, which a run keeping both cores busy may not leave for
 * minutes. The render is left to the pool's close (afterEach), which stops the process and refuses it.
 */
async function nicenessWhileRendering(drawn: PuzzlePool, expected: number): Promise<number | undefined> {
  drawn.take('text').catch(() => {});
  let seen: number | undefined;
  await vi.waitFor(
    () => {
      const pid = renderProcessId();
      seen = pid === undefined ? undefined : getPriority(pid);
      expect(seen).toBe(expected);
    },
    { timeout: 60_000, interval: 5 },
  );
  return seen;
}

const isBusy = (error: unknown) => error instanceof PassportError && error.code === ErrorCode.challengeBusy;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Handles that keep this process alive, of the kinds a child process and its channel hold. */
const childHandles = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'ProcessWrap' || kind === 'PipeWrap').length;

// The renders these tests wait for run at normal priority (0); the default's lowest priority is looked at
// while a render is in flight (nicenessWhileRendering).
describe('the render process', () => {
  it('is started by the first render, not by a pool, and shared by every pool in the process', async () => {
    const before = renderProcessId();
    const [first, second] = [pool(0), pool(0)];
    expect(renderProcessId()).toBe(before);
    await first.take('text');
    const pid = renderProcessId();
    expect(pid).toBeDefined();
    await second.take('whirl');
    expect(renderProcessId()).toBe(pid);
  });

  it('runs at the lowest CPU priority', async () => {
    expect(RENDER_NICENESS).toBe(19);
    expect(await nicenessWhileRendering(pool(), RENDER_NICENESS)).toBe(19);
  });

  it('renders at the niceness a pool asks for (the renderNiceness limit)', async () => {
    expect(await nicenessWhileRendering(pool(10), 10)).toBe(10);
    // Back to the lowest: raising a child's niceness is always allowed.
    expect(await nicenessWhileRendering(pool(), RENDER_NICENESS)).toBe(RENDER_NICENESS);
  });

  it('hands back whole puzzles of every kind across the channel: PNG data URLs and the answer', async () => {
    const kinds = Object.keys(puzzleKinds) as CaptchaSubtype[];
    const drawn = pool(0);
    for (const kind of kinds) {
      const puzzle = await drawn.take(kind);
      expect(puzzle.view.image).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]{100,}/);
      expect(puzzle.answer.kind).toBe(kind);
      if (kind === 'slide') expect(puzzle.view.piece).toMatch(/^data:image\/png;base64,/);
      if (kind === '3d') expect(puzzle.prompts?.en).toMatch(/^Click the /);
    }
  });

  it('holds the process open only while a render is in flight', async () => {
    const drawn = pool(0);
    await drawn.take('text');
    const idle = childHandles();
    const taking = drawn.take('slide');
    expect(childHandles()).toBeGreaterThan(idle);
    await taking;
    expect(childHandles()).toBe(idle);
  });

  it('stops when the last lease is given up, not before', async () => {
    const first = leaseRenderProcess(0);
    const second = leaseRenderProcess(0);
    // Other leases of this worker (servers of other test files) are all closed by now.
    await first.render('text');
    const pid = renderProcessId() as number;
    await first.release();
    expect(alive(pid)).toBe(true);
    expect(renderProcessId()).toBe(pid);
    await second.release();
    expect(renderProcessId()).toBeUndefined();
    expect(alive(pid)).toBe(false);
  });

  it('dies: the waiting draws are refused with CHALLENGE_BUSY, and a later render starts another', async () => {
    const drawn = pool(0);
    await drawn.take('text');
    const pid = renderProcessId() as number;
    const waiting = [drawn.take('text'), drawn.take('text')];
    process.kill(pid, 'SIGKILL');
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.map((o) => o.status === 'rejected' && isBusy(o.reason))).toEqual([true, true]);
    // Right after a death no other is started (a renderer that cannot start must not be forked per draw).
    await expect(drawn.take('text')).rejects.toSatisfy(isBusy);
    expect(renderProcessId()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, RESTART_DELAY_MS));
    const again = await drawn.take('text');
    expect(again.answer.kind).toBe('text');
    expect(renderProcessId()).not.toBe(pid);
    expect(alive(pid)).toBe(false);
  });
});
