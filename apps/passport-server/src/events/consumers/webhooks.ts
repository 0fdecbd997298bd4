import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { EventConsumer, StoredEvent } from '../dispatcher';

/** The webhooks' consumer name: its cursor in `event_cursors`. */
export const WEBHOOKS_CONSUMER = 'webhooks';

/** Whether an endpoint's filter takes the type: empty takes all; `a.b` that type; `a.` every `a.…`. */
export const typeMatches = (filters: readonly string[], type: string): boolean =>
  filters.length === 0 || filters.some((f) => (f.endsWith('.') ? type.startsWith(f) : f === type));

/**
 * The body every attempt of an event's delivery sends, fixed when the event comes (docs/webhooks.md,
 * "Payload"): the Standard Webhooks shape (`type`, `timestamp`, `data`) with the event's id, version,
 * stream, organisation, the person it happened to and who caused it. The request's IP address and
 * device id stay in the audit log.
 */
export function payloadOf(event: StoredEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    version: event.version,
    timestamp: new Date(event.occurredAt).toISOString(),
    stream: event.stream,
    organisation_id: event.subjectId,
    target_user_id: event.targetUserId,
    actor: event.actor,
    data: event.data,
  });
}

/**
 * Fans the outbox out to webhook endpoints: for each event, one delivery row per enabled endpoint whose
 * filter takes it (a deployment's endpoint every event, an organisation's only that organisation's),
 * written in the dispatcher's transaction with the cursor's move, so an event becomes its deliveries
 * exactly once. Sending is the worker's (src/domain/webhooks/worker.ts), off this transaction.
 */
export function webhooksConsumer(onQueued: () => void): EventConsumer {
  return {
    name: WEBHOOKS_CONSUMER,
    handle: () => Promise.reject(new Error('the webhooks consumer writes through the dispatcher')),
    async writeBatch(tx: Kysely<Database>, events: readonly StoredEvent[]) {
      const endpoints = await tx
        .selectFrom('webhook_endpoints')
        .select(['id', 'subject_id', 'event_types', 'created_at'])
        .where('enabled', '=', 1)
        .execute();
      if (endpoints.length === 0) return;
      const filters = endpoints.map((e) => ({ ...e, types: JSON.parse(e.event_types) as string[] }));
      const rows = [];
      for (const event of events)
        for (const endpoint of filters) {
          if (endpoint.subject_id !== null && endpoint.subject_id !== event.subjectId) continue;
          // An endpoint receives what happens after it was registered (the outbox is older).
          if (event.occurredAt < endpoint.created_at) continue;
          if (!typeMatches(endpoint.types, event.type)) continue;
          rows.push({
            id: randomUUID(),
            endpoint_id: endpoint.id,
            event_id: event.id,
            event_position: event.position,
            event_type: event.type,
            stream: event.stream,
            payload: payloadOf(event),
            status: 'pending',
            attempts: 0,
            next_attempt_at: event.occurredAt,
            lease_owner: null,
            lease_until: null,
            last_status: null,
            last_latency_ms: null,
            last_response: null,
            last_error: null,
            created_at: event.occurredAt,
            delivered_at: null,
          });
        }
      for (let i = 0; i < rows.length; i += 200)
        await tx
          .insertInto('webhook_deliveries')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
          .execute();
      if (rows.length > 0) onQueued();
    },
  };
}
