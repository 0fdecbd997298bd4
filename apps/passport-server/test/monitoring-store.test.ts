import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MonitorEventRow } from '../src/domain/monitoring/batch';
import { batchedMonitorStore, MAX_ROWS_PER_WRITE, type MonitorStore } from '../src/domain/monitoring/store';

/**
 * The collector's write-behind (domain/monitoring/store.ts): accepted events are written together a
 * moment later, and every read writes what waits first. A recording store stands in for the database.
 */

function recording() {
  const writes: MonitorEventRow[][] = [];
  const reads: string[] = [];
  let fail = false;
  const read = (name: string) => async () => {
    reads.push(`${name} after ${writes.length} writes`);
    return [] as never;
  };
  const inner: MonitorStore = {
    async insert(rows) {
      if (fail) throw new Error('disk full');
      writes.push([...rows]);
    },
    funnelSteps: read('funnelSteps'),
    funnelFailures: read('funnelFailures'),
    countsByLabel: read('countsByLabel'),
    valuesByLabel: read('valuesByLabel'),
    sources: read('sources'),
    deleteBefore: read('deleteBefore'),
  };
  return { inner, writes, reads, failNext: () => (fail = true) };
}

const rows = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ id: `r${from + i}` }) as unknown as MonitorEventRow);
const filter = { from: '2026-11-01', to: '2026-11-28' };

afterEach(() => {
  vi.useRealTimers();
});

describe('the collector write-behind', () => {
  it('writes the batches of 250 ms in one write, not one write per batch', async () => {
    vi.useFakeTimers();
    const { inner, writes } = recording();
    const store = batchedMonitorStore(inner, 250, () => {});
    for (let i = 0; i < 10; i++) await store.insert(rows(20, i * 20));
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(249);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes.map((w) => w.length)).toEqual([200]);
    await store.insert(rows(1, 999));
    await vi.advanceTimersByTimeAsync(250);
    expect(writes.map((w) => w.length)).toEqual([200, 1]);
  });

  it('writes at once when the rows of one write are waiting', async () => {
    vi.useFakeTimers();
    const { inner, writes } = recording();
    const store = batchedMonitorStore(inner, 250, () => {});
    for (let i = 0; i < MAX_ROWS_PER_WRITE / 20; i++) await store.insert(rows(20, i * 20));
    expect(writes.map((w) => w.length)).toEqual([MAX_ROWS_PER_WRITE]);
  });

  it('every read sees every accepted event: what waits is written first', async () => {
    const { inner, reads } = recording();
    const store = batchedMonitorStore(inner, 60_000, () => {});
    await store.insert(rows(3));
    await store.funnelSteps(filter);
    await store.insert(rows(2, 3));
    await store.sources(filter);
    await store.deleteBefore(0);
    expect(reads).toEqual([
      'funnelSteps after 1 writes',
      'sources after 2 writes',
      'deleteBefore after 2 writes',
    ]);
  });

  it('reports a failed write and goes on with the next one', async () => {
    const { inner, writes, failNext } = recording();
    const errors: unknown[] = [];
    const store = batchedMonitorStore(inner, 60_000, (error) => errors.push(error));
    await store.insert(rows(1));
    failNext();
    await store.flush();
    expect(errors.map(String)).toEqual(['Error: disk full']);
    expect(writes).toEqual([]);
  });

  it('with no delay writes each insert before it answers', async () => {
    const { inner, writes } = recording();
    const store = batchedMonitorStore(inner, 0, () => {});
    await store.insert(rows(2));
    expect(writes.map((w) => w.length)).toEqual([2]);
  });
});
