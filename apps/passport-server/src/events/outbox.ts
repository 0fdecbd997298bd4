import type { Kysely } from 'kysely';
import { Compile } from 'typebox/compile';
import { v7 as timeOrderedUuid } from 'uuid';
import type { Database } from '../db/schema';
import { type DomainEvent, EVENTS } from './catalogue';

/** Where and how a request caused its events: kept beside them for the audit log. */
export interface EventContext {
  /** The server clock's now, in ms. */
  at: number;
  ip?: string | null;
  /** The device id the request carried (the `did` the SDK sends), when any. */
  deviceId?: string | null;
}

const checks = new Map([...EVENTS].map(([type, definition]) => [type, Compile(definition.data)]));

/**
 * Appends events to the outbox through `db`, which is the transaction of the change that caused them:
 * the change and its events commit together or not at all. A payload that does not match its type's
 * schema is a programming error and throws before anything is written.
 */
export async function recordEvents(
  db: Kysely<Database>,
  events: readonly DomainEvent[],
  context: EventContext,
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => {
    const definition = EVENTS.get(event.type);
    const check = checks.get(event.type);
    if (!definition || !check) throw new Error(`event type ${event.type} is not in the catalogue`);
    if (!check.Check(event.data)) {
      const [first] = check.Errors(event.data);
      throw new Error(`event ${event.type} data does not match its schema: ${first?.message ?? 'invalid'}`);
    }
    const actor = event.actor;
    return {
      id: timeOrderedUuid(),
      type: event.type,
      version: definition.version,
      stream: event.stream,
      actor: JSON.stringify(actor),
      actor_user_id: 'userId' in actor ? actor.userId : null,
      subject_id: event.subjectId ?? null,
      target_user_id: event.targetUserId ?? null,
      data: JSON.stringify(event.data),
      ip: context.ip ?? null,
      device_id: context.deviceId ?? null,
      occurred_at: context.at,
    };
  });
  await db.insertInto('events').values(rows).execute();
}
