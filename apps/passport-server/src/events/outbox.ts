import { type Kysely, PostgresAdapter, sql } from 'kysely';
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

/**
 * The key of the PostgreSQL lock that makes event writers commit in `position` order: held from the
 * moment a transaction takes its positions until it commits, so no smaller position can become visible
 * after a larger one (the dispatcher never skips an event that was still being committed). SQLite has
 * one writer at a time and needs nothing.
 */
export const EVENTS_COMMIT_LOCK = 7_240_118_018;

/** The dispatchers of this process, woken when events were written (src/events/dispatcher). */
const listeners = new Set<() => void>();
export function onEventsRecorded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const checks = new Map([...EVENTS].map(([type, definition]) => [type, Compile(definition.data)]));

/**
 * Appends events to the outbox through `db`, which is the transaction of the change that caused them:
 * the change and its events commit together or not at all (given the app's handle, events that
 * describe no change of their own — a failed guess — get a transaction of their own). A payload that does not match its type's
 * schema is a programming error and throws before anything is written.
 *
 * Call it last in the transaction: on PostgreSQL it takes the events' commit lock, which is held until
 * the commit, so the other writers of events wait only for this transaction's commit.
 */
export async function recordEvents(
  db: Kysely<Database>,
  events: readonly DomainEvent[],
  context: EventContext,
): Promise<void> {
  if (events.length === 0) return;
  // Outside a transaction, one of its own: PostgreSQL's lock must be held until the insert commits.
  if (!db.isTransaction) return db.transaction().execute((tx) => recordEvents(tx, events, context));
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
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(${EVENTS_COMMIT_LOCK}::bigint)`.execute(db);
  await db.insertInto('events').values(rows).execute();
  for (const listener of listeners) listener();
}
