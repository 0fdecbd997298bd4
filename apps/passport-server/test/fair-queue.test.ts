import { describe, expect, it } from 'vitest';
import { FairQueue, QueueFull } from '../src/domain/passwords/fair-queue';

/** A job the test finishes by hand, so the order the queue starts them in is what is measured. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('the fair queue', () => {
  it('serves one job per waiting source in turn, whatever order they came in', async () => {
    const queue = new FairQueue<string>({ perSource: 10, perAccount: 10, total: 100, concurrency: 1 });
    const first = gate();
    const started: string[] = [];
    const job = (name: string, wait?: Promise<void>) => async () => {
      started.push(name);
      await wait;
      return name;
    };
    const all = [queue.run({ source: 'a' }, job('a0', first.opened))];
    for (let i = 1; i <= 3; i++) all.push(queue.run({ source: 'a' }, job(`a${i}`)));
    all.push(queue.run({ source: 'b' }, job('b1')));
    all.push(queue.run({ source: 'c' }, job('c1')));
    first.open();
    await Promise.all(all);
    expect(started).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'a3']);
  });

  it('at its total, pushes out the fullest source’s newest job for a newcomer, never the newcomer', async () => {
    const queue = new FairQueue<string>({ perSource: 10, perAccount: 10, total: 4, concurrency: 1 });
    const first = gate();
    const results: string[] = [];
    const track = (p: Promise<string>) =>
      p.then(
        (v) => results.push(v),
        (e: unknown) => results.push(e instanceof QueueFull ? `${e.reason}` : String(e)),
      );
    const all = [
      track(
        queue.run({ source: 'a' }, async () => {
          await first.opened;
          return 'a0';
        }),
      ),
    ];
    for (let i = 1; i <= 4; i++) all.push(track(queue.run({ source: 'a' }, async () => `a${i}`)));
    all.push(track(queue.run({ source: 'owner' }, async () => 'owner')));
    // At its bound and the fullest: a's next is refused, not the owner's.
    all.push(track(queue.run({ source: 'a' }, async () => 'a5')));
    first.open();
    await Promise.all(all);
    expect(results).toContain('owner');
    expect(results.filter((r) => r === 'displaced').length).toBe(2);
    expect(results).not.toContain('a4');
  });
});
