import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { MonitorSchema } from '../../db/schema';
import { dashboard } from '../../domain/monitoring/dashboard';
import {
  type BatchedMonitorStore,
  batchedMonitorStore,
  databaseMonitorStore,
  MONITOR_INSERT_SQL,
  type MonitorFilter,
} from '../../domain/monitoring/store';
import { monitorWriter } from '../../domain/monitoring/writer';
import type { MonitorDashboardData } from '../../protocol';

export interface Monitoring {
  /** Accepted events are written together, a moment later (MonitorLimits.monitorWriteDelayMs). */
  store: BatchedMonitorStore;
  /** Where the events are read from (on SQLite `monitor.db`, else the main database). */
  db: Kysely<MonitorSchema>;
  /** Deletes events older than MONITOR_RETENTION_DAYS; returns how many (the housekeeping timer; tests). */
  sweep(): Promise<number>;
  dashboard(filter: MonitorFilter): Promise<MonitorDashboardData>;
}

declare module 'fastify' {
  interface FastifyInstance {
    monitoring: Monitoring;
  }
}

/**
 * The monitoring collector's storage (docs/monitoring.md): the database store behind the MonitorStore
 * interface, the retention sweep on the housekeeping interval, and the dashboard's aggregation.
 */
export default fp(
  async (app) => {
    const file = app.database.monitor;
    const writer = file ? monitorWriter({ file: file.file, insertSql: MONITOR_INSERT_SQL }) : undefined;
    const db = file?.db ?? app.db;
    const store = batchedMonitorStore(
      databaseMonitorStore(db, writer),
      app.runtime.limits.monitorWriteDelayMs,
      (error) => app.log.warn({ err: error }, 'monitoring events could not be written'),
    );
    const retentionMs = app.config.monitorRetentionDays * 86_400_000;
    const monitoring: Monitoring = {
      store,
      db,
      sweep: () => store.deleteBefore(app.runtime.now() - retentionMs),
      dashboard: (filter) => dashboard(store, filter),
    };
    app.decorate('monitoring', monitoring);
    const timer = setInterval(() => {
      monitoring.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'monitoring sweep failed'));
    }, app.runtime.limits.sweepIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await store.flush();
      await writer?.close();
    });
  },
  { name: 'monitoring', dependencies: ['db'] },
);
