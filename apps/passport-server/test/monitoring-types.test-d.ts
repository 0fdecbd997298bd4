/**
 * The collector's input schema against what @portico/monitor sends (packages/monitor/src/events.ts):
 * every batch the monitor can build must pass the schema's shape, so a field the monitor adds or
 * retypes fails `pnpm typecheck` here before a collector refuses real batches. (Type-only: the import
 * reads the monitor's source types; nothing runs.)
 */
import type { Static } from 'typebox';
import type { MonitorBatch, MonitorEvent } from '../../../packages/monitor/src/events';
import type { MonitorBatchSchema, MonitorEventSchema } from '../src/domain/monitoring/batch';

type Fits<A extends B, B> = A;

export type BatchFits = Fits<MonitorBatch, Static<typeof MonitorBatchSchema>>;
export type EventFits = Fits<MonitorEvent, Static<typeof MonitorEventSchema>>;
