import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema';
import type { MonitorEventRow } from './batch';
import type { MonitorWriter } from './writer';

/** Which events a dashboard query reads: a range of days (inclusive), optionally one app and flavour. */
export interface MonitorFilter {
  from: string;
  to: string;
  app?: string;
  flavour?: string;
}

/** A weighted count of a group of events. */
export interface GroupCount {
  day: string;
  key: string;
  /** A second key where the query has one (funnel: the step; errors by code: the code). */
  sub: string;
  count: number;
}

/** One measured value and its weight, for percentiles. */
export interface WeightedValue {
  day: string;
  key: string;
  value: number;
  weight: number;
}

/**
 * Where the collector keeps events and how the dashboard reads them: behind this interface so that
 * another store (a column store, a hosted time-series service) can replace the database tables.
 * `databaseMonitorStore` is the one on SQLite and PostgreSQL.
 */
export interface MonitorStore {
  insert(rows: readonly MonitorEventRow[]): Promise<void>;
  /** The weighted funnel steps per day, `app|method` (key) and step (sub). */
  funnelSteps(filter: MonitorFilter): Promise<GroupCount[]>;
  /** The weighted failures per day, `app|method` (key) and error code (sub). */
  funnelFailures(filter: MonitorFilter): Promise<GroupCount[]>;
  /** Weighted counts of one kind's events per day and label (sub: '' or, for http, 'error'/'ok'). */
  countsByLabel(filter: MonitorFilter, kind: string, limit: number): Promise<GroupCount[]>;
  /** The values of one kind's events per day and label, at most `limit` rows. */
  valuesByLabel(filter: MonitorFilter, kind: string, limit: number): Promise<WeightedValue[]>;
  /** The apps and flavours that sent events in the range (the dashboard's filter choices). */
  sources(filter: Pick<MonitorFilter, 'from' | 'to'>): Promise<{ apps: string[]; flavours: string[] }>;
  /** Deletes events older than `at`; returns how many. */
  deleteBefore(at: number): Promise<number>;
}

/**
 * Every column of a monitoring event, for the SQLite writer's insert: a record over the row's keys, so a
 * column added to the table and not here (or named wrongly here) fails the type check.
 */
const COLUMNS = Object.keys({
  id: true,
  at: true,
  day: true,
  app: true,
  flavour: true,
  kind: true,
  session: true,
  weight: true,
  page: true,
  method: true,
  step: true,
  label: true,
  error_code: true,
  status: true,
  value: true,
} satisfies Record<keyof MonitorEventRow, true>);

/** The writer thread's prepared insert of one row (./writer-worker.ts). */
export const MONITOR_INSERT_SQL = `insert into monitor_events (${COLUMNS.join(', ')}) values (${COLUMNS.map((c) => `@${c}`).join(', ')})`;

/**
 * The monitoring table of migration 0015, read through `db`. On PostgreSQL `db` writes too. On SQLite
 * `db` is `monitor.db` and the writes go to `writer`, a thread of their own (./writer.ts): a write of a
 * few hundred rows with its commit, and now and then a WAL checkpoint, held the event loop for
 * milliseconds while the session check waited behind it (docs/benchmarks.md).
 */
export function databaseMonitorStore(
  db: Kysely<Pick<Database, 'monitor_events'>>,
  writer?: Pick<MonitorWriter, 'insert' | 'deleteBefore'>,
): MonitorStore {
  const scoped = (filter: MonitorFilter, kind: string) => {
    let query = db
      .selectFrom('monitor_events')
      .where('kind', '=', kind)
      .where('day', '>=', filter.from)
      .where('day', '<=', filter.to);
    if (filter.app) query = query.where('app', '=', filter.app);
    if (filter.flavour) query = query.where('flavour', '=', filter.flavour);
    return query;
  };
  const weighted = sql<number>`sum(weight)`.as('count');
  const numbers = (rows: { day: string; key: string | null; sub: unknown; count: unknown }[]) =>
    rows.map((r) => ({ day: r.day, key: r.key ?? '', sub: String(r.sub ?? ''), count: Number(r.count) }));

  return {
    async insert(rows) {
      if (!rows.length) return;
      if (writer) return writer.insert(rows);
      await db
        .insertInto('monitor_events')
        .values([...rows])
        .execute();
    },
    async funnelSteps(filter) {
      const rows = await scoped(filter, 'funnel')
        .select(['day', sql<string>`app || '|' || method`.as('key'), 'step as sub', weighted])
        .groupBy(['day', 'app', 'method', 'step'])
        .execute();
      return numbers(rows);
    },
    async funnelFailures(filter) {
      const rows = await scoped(filter, 'funnel')
        .where('step', '=', 'failed')
        .select(['day', sql<string>`app || '|' || method`.as('key'), 'error_code as sub', weighted])
        .groupBy(['day', 'app', 'method', 'error_code'])
        .execute();
      return numbers(rows);
    },
    async countsByLabel(filter, kind, limit) {
      const rows = await scoped(filter, kind)
        .select([
          'day',
          'label as key',
          sql<string>`case when error_code is not null and error_code <> 0 then 'error' else '' end`.as(
            'sub',
          ),
          weighted,
        ])
        .groupBy([
          'day',
          'label',
          sql`case when error_code is not null and error_code <> 0 then 'error' else '' end`,
        ])
        .orderBy('count', 'desc')
        .limit(limit)
        .execute();
      return numbers(rows);
    },
    async valuesByLabel(filter, kind, limit) {
      const rows = await scoped(filter, kind)
        .where('value', 'is not', null)
        .select(['day', 'label', 'value', 'weight'])
        .orderBy('at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        day: r.day,
        key: r.label ?? '',
        value: Number(r.value),
        weight: Number(r.weight),
      }));
    },
    async sources(filter) {
      const rows = await db
        .selectFrom('monitor_events')
        .where('day', '>=', filter.from)
        .where('day', '<=', filter.to)
        .select(['app', 'flavour'])
        .distinct()
        .limit(1000)
        .execute();
      return {
        apps: [...new Set(rows.map((r) => r.app))].sort(),
        flavours: [...new Set(rows.map((r) => r.flavour))].sort(),
      };
    },
    async deleteBefore(at) {
      if (writer) return writer.deleteBefore(at);
      const result = await db.deleteFrom('monitor_events').where('at', '<', at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** A store whose accepted events are written together; `flush` writes what waits. */
export interface BatchedMonitorStore extends MonitorStore {
  flush(): Promise<void>;
}

/** Rows written in one statement at most (SQLite's 32,766 parameters / about 20 columns). */
export const MAX_ROWS_PER_WRITE = 1_000;

/**
 * Write-behind in front of `inner`: `insert` queues the rows and answers at once; they are written in
 * one statement `delayMs` after the first of them arrived (or as soon as MAX_ROWS_PER_WRITE wait), so a
 * sustained stream of batches costs a few commits a second instead of one per batch. Every read writes
 * what waits first, so an accepted event is always seen by the next read. A failed write is reported to
 * `onError` and its rows are dropped (monitoring data, not account data); a crash loses at most
 * `delayMs` of events. `delayMs` 0 writes each insert at once.
 */
export function batchedMonitorStore(
  inner: MonitorStore,
  delayMs: number,
  onError: (error: unknown) => void,
): BatchedMonitorStore {
  let pending: MonitorEventRow[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const rows = pending;
    pending = [];
    // Writes stay in order, one after another.
    writing = writing.then(async () => {
      for (let at = 0; at < rows.length; at += MAX_ROWS_PER_WRITE)
        await inner.insert(rows.slice(at, at + MAX_ROWS_PER_WRITE)).catch(onError);
    });
    return writing;
  }
  const beforeRead =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await flush();
      return read(...args);
    };

  return {
    async insert(rows) {
      if (delayMs <= 0) return inner.insert(rows);
      pending.push(...rows);
      if (pending.length >= MAX_ROWS_PER_WRITE) return flush();
      timer ??= setTimeout(() => void flush(), delayMs);
    },
    flush,
    funnelSteps: beforeRead(inner.funnelSteps),
    funnelFailures: beforeRead(inner.funnelFailures),
    countsByLabel: beforeRead(inner.countsByLabel),
    valuesByLabel: beforeRead(inner.valuesByLabel),
    sources: beforeRead(inner.sources),
    deleteBefore: beforeRead(inner.deleteBefore),
  };
}
