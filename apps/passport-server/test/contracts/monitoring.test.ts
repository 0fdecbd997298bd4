import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorEventRow } from '../../src/domain/monitoring/batch';
import { backend, startServer, type TestServer } from '../support/server';

/**
 * The monitoring store's contract (src/domain/monitoring/store.ts) on the database of the project: on
 * SQLite its own file written by a thread of its own, on PostgreSQL a table of the main database
 * written by the query builder. The dashboard's weighted groupings are dialect-sensitive SQL (string
 * concatenation, sums of reals, a grouping by an expression); the feature suites read them on SQLite
 * only. (The Redis project keeps SQLite as its database, so it skips this file.)
 */
let server: TestServer;
beforeAll(async () => {
  if (backend === 'redis') return;
  server = await startServer();
});
afterAll(() => server?.close());

const AT = Date.UTC(2001, 0, 2, 12);
const DAY = '2001-01-02';

const row = (fields: Partial<MonitorEventRow> & Pick<MonitorEventRow, 'kind'>): MonitorEventRow => ({
  id: randomUUID(),
  at: AT,
  day: DAY,
  app: 'contract',
  flavour: 'web',
  session: 'contract'.padEnd(32, '0'),
  weight: 1,
  page: '/login',
  method: null,
  step: null,
  label: null,
  error_code: null,
  status: null,
  value: null,
  ...fields,
});

describe.skipIf(backend === 'redis')(`the monitoring store on ${backend}`, () => {
  it('groups weighted funnel steps, failures, labels and values, lists the sources and deletes by age', async () => {
    const { store } = server.app.monitoring;
    const funnel = (step: string, weight = 1, error_code: number | null = null) =>
      row({ kind: 'funnel', method: 'mobile_code', step, weight, error_code });
    await store.insert([
      funnel('started'),
      funnel('started'),
      funnel('failed', 2, 1104),
      funnel('signed_in'),
      row({ kind: 'http', label: '/p/', status: 200, value: 41, weight: 100 }),
      row({ kind: 'http', label: '/p/', status: 200, value: 43, weight: 100 }),
      row({ kind: 'http', label: '/q/', status: 500, error_code: 500, value: 7, weight: 0.5 }),
      row({ kind: 'js_error', label: 'TypeError: x', flavour: 'app' }),
    ]);
    await store.flush();
    const filter = { from: DAY, to: DAY, app: 'contract' };
    const sorted = <T extends { key: string; sub?: string }>(rows: T[]) =>
      [...rows].sort((a, b) => `${a.key}/${a.sub}`.localeCompare(`${b.key}/${b.sub}`));

    expect(sorted(await store.funnelSteps(filter))).toEqual([
      { day: DAY, key: 'contract|mobile_code', sub: 'failed', count: 2 },
      { day: DAY, key: 'contract|mobile_code', sub: 'signed_in', count: 1 },
      { day: DAY, key: 'contract|mobile_code', sub: 'started', count: 2 },
    ]);
    expect(await store.funnelFailures(filter)).toEqual([
      { day: DAY, key: 'contract|mobile_code', sub: '1104', count: 2 },
    ]);
    expect(await store.countsByLabel(filter, 'http', 10)).toEqual([
      { day: DAY, key: '/p/', sub: '', count: 200 },
      { day: DAY, key: '/q/', sub: 'error', count: 0.5 },
    ]);
    expect(await store.countsByLabel(filter, 'http', 1)).toHaveLength(1);
    const values = await store.valuesByLabel(filter, 'http', 10);
    expect(values.map((v) => [v.key, v.value, v.weight]).sort()).toEqual([
      ['/p/', 41, 100],
      ['/p/', 43, 100],
      ['/q/', 7, 0.5],
    ]);
    expect(await store.countsByLabel({ ...filter, flavour: 'app' }, 'js_error', 10)).toEqual([
      { day: DAY, key: 'TypeError: x', sub: '', count: 1 },
    ]);
    expect(await store.countsByLabel({ from: '2001-01-03', to: '2001-01-09' }, 'http', 10)).toEqual([]);
    expect(await store.sources({ from: DAY, to: DAY })).toEqual({
      apps: ['contract'],
      flavours: ['app', 'web'],
    });

    expect(await store.deleteBefore(AT)).toBe(0);
    expect(await store.deleteBefore(AT + 1)).toBe(8);
    expect(await store.funnelSteps(filter)).toEqual([]);
  });
});
