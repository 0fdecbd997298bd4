import fp from 'fastify-plugin';
import { dashboard } from '../../domain/monitoring/dashboard';
import { databaseMonitorStore, type MonitorFilter, type MonitorStore } from '../../domain/monitoring/store';
import type { MonitorDashboardData } from '../../protocol';

export interface Monitoring {
  store: MonitorStore;
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
    const store = databaseMonitorStore(app.db);
    const retentionMs = app.config.monitorRetentionDays * 86_400_000;
    const monitoring: Monitoring = {
      store,
      sweep: () => store.deleteBefore(app.runtime.now() - retentionMs),
      dashboard: (filter) => dashboard(store, filter),
    };
    app.decorate('monitoring', monitoring);
    const timer = setInterval(() => {
      monitoring.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'monitoring sweep failed'));
    }, app.runtime.limits.sweepIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'monitoring', dependencies: ['db'] },
);
