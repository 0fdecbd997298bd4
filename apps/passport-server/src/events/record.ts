import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { EventData, EventType } from './catalogue';
import { type EventContext, recordEvents } from './outbox';

/** Where and when the request happened, for its events (the client address, the SDK's device id). */
export function eventContextOf(app: FastifyInstance, request: FastifyRequest): EventContext {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return {
    at: app.runtime.now(),
    ip: request.ip,
    deviceId: typeof query.did === 'string' && query.did !== '' ? query.did.slice(0, 64) : null,
  };
}

/**
 * Records one event of a person's account through `db` (the transaction of the change, when the flow
 * has one): their stream, the person as actor unless another is named (an anonymous failed guess), the
 * person as the one it happened to.
 */
export function recordAccountEvent<T extends EventType>(
  app: FastifyInstance,
  request: FastifyRequest,
  db: Kysely<Database>,
  event: { type: T; userId: string; data: EventData<T>; anonymous?: boolean },
): Promise<void> {
  return recordEvents(
    db,
    [
      {
        type: event.type,
        stream: `user:${event.userId}`,
        actor: event.anonymous ? { kind: 'anonymous' } : { kind: 'person', userId: event.userId },
        targetUserId: event.userId,
        data: event.data,
      },
    ],
    eventContextOf(app, request),
  );
}
