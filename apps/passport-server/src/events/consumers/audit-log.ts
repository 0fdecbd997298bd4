import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema';
import { EVENTS, type EventActor } from '../catalogue';
import type { EventConsumer, StoredEvent } from '../dispatcher';

/** The audit log's consumer name: its cursor in `event_cursors`. */
export const AUDIT_LOG_CONSUMER = 'audit-log';

/**
 * The first consumer of the outbox: copies every event, whatever its type, into `audit_log`, where a
 * person reads their own activity, a manager their organisation's and an operator all of it. The
 * dispatcher does it, after the requests' commits and a batch at a time, never in a request. A row is
 * keyed by the event id, so a second delivery of an event changes nothing.
 */
export function auditLogConsumer(db: Kysely<Database>): EventConsumer {
  const rowOf = (event: StoredEvent) => ({
    position: event.position,
    id: event.id,
    type: event.type,
    version: event.version,
    actor: JSON.stringify(event.actor),
    actor_user_id: event.actorUserId,
    subject_id: event.subjectId,
    target_user_id: event.targetUserId,
    data: JSON.stringify(event.data),
    ip: event.ip,
    device_id: event.deviceId,
    occurred_at: event.occurredAt,
  });
  const insert = (events: readonly StoredEvent[], through = db) =>
    through
      .insertInto('audit_log')
      .values(events.map(rowOf))
      // A second delivery of an event (same id and position) writes nothing.
      .onConflict((oc) => oc.doNothing())
      .execute();
  return {
    name: AUDIT_LOG_CONSUMER,
    handle: async (event) => {
      await insert([event]);
    },
    // One statement per batch, in the transaction that moves the cursor: one commit per batch.
    writeBatch: async (tx, events) => {
      await insert(events, tx);
    },
  };
}

/** One audit entry as the routes answer it. */
export interface AuditEntry {
  /** The cursor of this entry: pass it as `before` for the entries older than it. */
  cursor: string;
  id: string;
  type: string;
  version: number;
  actor: EventActor;
  subject_id: string | null;
  target_user_id: string | null;
  data: Record<string, unknown>;
  ip: string | null;
  /** Ms since the epoch. */
  occurred_at: number;
}

export interface AuditQuery {
  /** Whose activity: the rows about this person (their own security activity). */
  personId?: string;
  /** An organisation's log. */
  subjectId?: string;
  /** Exact types, or a prefix ending in '.' (`account.`). */
  type?: string;
  actorUserId?: string;
  targetUserId?: string;
  /** Inclusive lower and exclusive upper bounds, ms since the epoch. */
  from?: number;
  to?: number;
  /** A cursor from an earlier page: only older entries. */
  before?: string;
  limit: number;
}

const entryOf = (row: AuditLogTable): AuditEntry => ({
  cursor: String(row.position),
  id: row.id,
  type: row.type,
  version: row.version,
  actor: JSON.parse(row.actor) as EventActor,
  subject_id: row.subject_id,
  target_user_id: row.target_user_id,
  data: JSON.parse(row.data) as Record<string, unknown>,
  ip: row.ip,
  occurred_at: Number(row.occurred_at),
});

/** A page of the audit log, newest first, and the cursor of the next (older) page when there is one. */
export async function readAuditLog(
  db: Kysely<Database>,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; next: string | null }> {
  let select = db.selectFrom('audit_log').selectAll();
  if (query.personId !== undefined) select = select.where('target_user_id', '=', query.personId);
  if (query.subjectId !== undefined) select = select.where('subject_id', '=', query.subjectId);
  if (query.type !== undefined)
    select = query.type.endsWith('.')
      ? select.where('type', 'like', `${query.type.replace(/[%_\\]/g, '')}%`)
      : select.where('type', '=', query.type);
  if (query.actorUserId !== undefined) select = select.where('actor_user_id', '=', query.actorUserId);
  if (query.targetUserId !== undefined) select = select.where('target_user_id', '=', query.targetUserId);
  if (query.from !== undefined) select = select.where('occurred_at', '>=', query.from);
  if (query.to !== undefined) select = select.where('occurred_at', '<', query.to);
  if (query.before !== undefined) select = select.where('position', '<', Number(query.before));
  const rows = await select
    .orderBy('position', 'desc')
    .limit(query.limit + 1)
    .execute();
  const entries = rows.slice(0, query.limit).map(entryOf);
  return { entries, next: rows.length > query.limit ? (entries.at(-1)?.cursor ?? null) : null };
}

/** Deletes the entries older than `before` (ms); answers how many (housekeeping, AUDIT_RETENTION_DAYS). */
export async function sweepAuditLog(db: Kysely<Database>, before: number): Promise<number> {
  const result = await db.deleteFrom('audit_log').where('occurred_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What erasure leaves of a person's identifiers in the data of their events. */
export const ERASED = '[erased]';

/** Strings that identify a person: an e-mail address, a phone number (masked ones too), an IP. */
const IDENTIFYING = /@|\d[\d*\s().-]{5,}\d|^\d{1,3}(\.\d{1,3}){3}$|^[0-9a-f]*:[0-9a-f]*:[0-9a-f:.]*$/i;
/** A record's id (a member identity, an invitation): pseudonymous, kept, though its digits and dashes
 * look like a phone number's. */
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The data with every identifying string replaced (nested objects and arrays too). */
export function scrubbed(value: unknown): unknown {
  if (typeof value === 'string') return !RECORD_ID.test(value) && IDENTIFYING.test(value) ? ERASED : value;
  if (Array.isArray(value)) return value.map(scrubbed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubbed(inner)]));
  return value;
}

/**
 * Erasure: the person's events keep their ids, types, times and pseudonymous user id, and lose their
 * address, device and any e-mail or phone number in their data, in the audit log and in the outbox it
 * is copied from (so a copy made after erasure carries none either). Runs in the erasure's transaction.
 */
export async function eraseFromAuditLog(trx: Kysely<Database>, userId: string): Promise<void> {
  for (const table of ['audit_log', 'events'] as const) {
    const rows = await trx
      .selectFrom(table)
      .select(['id', 'type', 'data', 'target_user_id'])
      .where((eb) => eb.or([eb('target_user_id', '=', userId), eb('actor_user_id', '=', userId)]))
      .execute();
    for (const row of rows) {
      const data = scrubbed(JSON.parse(row.data)) as Record<string, unknown>;
      // Their own name or words, where the event is about them (not someone they acted on).
      if (row.target_user_id === userId)
        for (const field of EVENTS.get(row.type)?.personal ?? []) if (field in data) data[field] = ERASED;
      await trx
        .updateTable(table)
        .set({ ip: null, device_id: null, data: JSON.stringify(data) })
        .where('id', '=', row.id)
        .execute();
    }
  }
}

const CSV_COLUMNS = [
  'occurred_at',
  'type',
  'version',
  'actor',
  'target_user_id',
  'subject_id',
  'ip',
  'data',
  'id',
];

/** One CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is defused. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The entries as CSV (RFC 4180, a header row, times in ISO 8601 UTC). */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = entries.map((entry) =>
    [
      new Date(entry.occurred_at).toISOString(),
      entry.type,
      String(entry.version),
      'userId' in entry.actor ? entry.actor.userId : entry.actor.kind,
      entry.target_user_id ?? '',
      entry.subject_id ?? '',
      entry.ip ?? '',
      JSON.stringify(entry.data),
      entry.id,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
