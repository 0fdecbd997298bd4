import { randomUUID } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database, EventsTable } from '../db/schema';
import type { EventActor } from './catalogue';
import { EVENTS_COMMIT_LOCK, onEventsRecorded } from './outbox';

/** An event as consumers receive it: the outbox row, its JSON read. */
export interface StoredEvent {
  position: number;
  /** Unique and stable: a consumer that sees an id again has seen that event (at-least-once). */
  id: string;
  type: string;
  version: number;
  stream: string;
  actor: EventActor;
  actorUserId: string | null;
  subjectId: string | null;
  targetUserId: string | null;
  data: Record<string, unknown>;
  ip: string | null;
  deviceId: string | null;
  occurredAt: number;
}

/**
 * An in-process consumer. It receives every event in `position` order, at least once: after a failure
 * (a throw) it gets the same event again, so it must be idempotent by event id; it never gets a later
 * event before an earlier one has succeeded.
 */
export interface EventConsumer {
  /** Its cursor's name: keep it stable, a new name starts from the first event. */
  name: string;
  handle(event: StoredEvent): Promise<void>;
  /**
   * Takes a whole batch at once instead (one multi-row write, one commit); when it throws, the batch
   * is delivered again from its first event.
   */
  handleBatch?(events: readonly StoredEvent[]): Promise<void>;
  /**
   * For a consumer whose effect is rows of this database (the audit log): writes each batch through
   * the dispatcher's transaction, the one that also takes the cursor and moves it. A delivery is then
   * one commit per batch, lease and cursor included, and a batch is applied exactly once. It must wait
   * on nothing but `tx`: on SQLite the transaction holds the server's one connection.
   */
  writeBatch?(tx: Kysely<Database>, events: readonly StoredEvent[]): Promise<void>;
  /**
   * The event types it acts on, when it acts on a few: it is given only those, and a pass whose new
   * events are all of other types takes no lease and commits nothing for it (its cursor waits at its
   * last event of these types; the index `events_type` finds the next one).
   */
  types?: readonly string[];
}

export interface DispatcherOptions {
  /** How often to look for events other servers committed. */
  pollMs: number;
  /** How long a cursor's lease lasts without renewal (a crashed server's lease runs out). */
  leaseMs: number;
  /** The first retry's delay after a failure; it doubles up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Events read and delivered per lease renewal. */
  batchSize: number;
  /** How long a wake waits to gather the events of other requests into the same run. */
  wakeDelayMs: number;
  onError(error: unknown, consumer: string): void;
}

export interface Dispatcher {
  register(consumer: EventConsumer): void;
  /** Looks for new events soon (after a commit in this process; the poll covers other processes). */
  wake(): void;
  /** Delivers what is there now to every consumer (tests; the timers call it). */
  runOnce(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

const toStored = (row: EventsTable & { position: number }): StoredEvent => ({
  position: Number(row.position),
  id: row.id,
  type: row.type,
  version: row.version,
  stream: row.stream,
  actor: JSON.parse(row.actor) as EventActor,
  actorUserId: row.actor_user_id,
  subjectId: row.subject_id,
  targetUserId: row.target_user_id,
  data: JSON.parse(row.data) as Record<string, unknown>,
  ip: row.ip,
  deviceId: row.device_id,
  occurredAt: Number(row.occurred_at),
});

/**
 * Delivers the outbox to in-process consumers, each from its own cursor (`event_cursors`). Several
 * servers on one PostgreSQL database take turns per consumer: the one that holds the cursor row's lease
 * (a conditional UPDATE) delivers, moves the cursor and renews the lease on every batch, so each event
 * reaches a consumer once in order unless a server dies mid-batch (then its lease runs out and the
 * next server delivers the batch again: at least once). A failing consumer keeps its cursor and is
 * retried with a doubling delay; it never skips. Leases and retries use the wall clock, not the test
 * clock: they are about this process's timers, not about the product's time.
 */
export function createDispatcher(db: Kysely<Database>, options: DispatcherOptions): Dispatcher {
  const owner = randomUUID();
  const consumers = new Map<string, EventConsumer>();
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  let wakeTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  /**
   * Whether any event lies past the consumer's cursor: read only, so that a poll that finds nothing
   * takes no lease and commits nothing.
   */
  async function pending(name: string, types?: readonly string[]): Promise<boolean> {
    let query = db
      .selectFrom('events')
      .select('position')
      .where(
        'position',
        '>',
        sql<number>`coalesce((select position from event_cursors where consumer = ${name}), 0)`,
      );
    if (types) query = query.where('type', 'in', types);
    return (await query.limit(1).executeTakeFirst()) !== undefined;
  }

  const readBatch = async (through: Kysely<Database>, after: number, types?: readonly string[]) => {
    let query = through.selectFrom('events').selectAll().where('position', '>', after);
    if (types) query = query.where('type', 'in', types);
    return (await query.orderBy('position').limit(options.batchSize).execute()).map((row) =>
      toStored(row as EventsTable & { position: number }),
    );
  };

  /** Takes the consumer's lease when it is free, ours or expired, and its retry time has come. */
  async function lease(name: string, now: number, through = db): Promise<number | undefined> {
    await through
      .insertInto('event_cursors')
      .values({ consumer: name, position: 0 })
      .onConflict((oc) => oc.column('consumer').doNothing())
      .execute();
    const taken = await through
      .updateTable('event_cursors')
      .set({ lease_owner: owner, lease_until: now + options.leaseMs })
      .where('consumer', '=', name)
      .where((eb) =>
        eb.and([
          eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_until', '<', now)]),
          eb.or([eb('retry_at', 'is', null), eb('retry_at', '<=', now)]),
        ]),
      )
      .returning(['position'])
      .executeTakeFirst();
    return taken ? Number(taken.position) : undefined;
  }

  /** Moves the cursor (and renews the lease) only while the lease is still ours. */
  async function advance(name: string, position: number): Promise<boolean> {
    const moved = await db
      .updateTable('event_cursors')
      .set({
        position,
        attempts: 0,
        retry_at: null,
        last_error: null,
        lease_until: Date.now() + options.leaseMs,
      })
      .where('consumer', '=', name)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  }

  async function release(name: string): Promise<void> {
    await db
      .updateTable('event_cursors')
      .set({ lease_owner: null, lease_until: null })
      .where('consumer', '=', name)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Records a failure and when to retry; `leased`: only while the lease is still ours. */
  async function fail(name: string, error: unknown, leased = true): Promise<void> {
    const row = await db
      .selectFrom('event_cursors')
      .select('attempts')
      .where('consumer', '=', name)
      .executeTakeFirst();
    const attempts = Number(row?.attempts ?? 0) + 1;
    const delay = Math.min(options.retryBaseMs * 2 ** Math.min(attempts - 1, 30), options.retryMaxMs);
    await db
      .updateTable('event_cursors')
      .set({
        attempts,
        retry_at: Date.now() + delay,
        last_error: String(error instanceof Error ? error.message : error).slice(0, 500),
        lease_owner: null,
        lease_until: null,
      })
      .where('consumer', '=', name)
      .where((eb) =>
        leased
          ? eb('lease_owner', '=', owner)
          : eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner)]),
      )
      .execute();
    // Come back when the retry is due, without waiting for the poll.
    if (!stopped) setTimeout(wake, delay).unref();
  }

  /**
   * Delivers a writeBatch consumer's pending events, one transaction per batch: the lease is taken,
   * the batch read and written, the cursor moved and the lease let go in one commit (on PostgreSQL the
   * cursor row's lock, held until then, keeps other servers out meanwhile).
   */
  async function deliverInTransactions(
    name: string,
    writeBatch: NonNullable<EventConsumer['writeBatch']>,
  ): Promise<void> {
    let more = true;
    while (more && !stopped) {
      try {
        more = await db.transaction().execute(async (tx) => {
          const leased = await lease(name, Date.now(), tx);
          if (leased === undefined) return false;
          const events = await readBatch(tx, leased);
          if (events.length > 0) await writeBatch(tx, events);
          await tx
            .updateTable('event_cursors')
            .set({
              position: events.at(-1)?.position ?? leased,
              attempts: 0,
              retry_at: null,
              last_error: null,
              lease_owner: null,
              lease_until: null,
            })
            .where('consumer', '=', name)
            .execute();
          return events.length === options.batchSize;
        });
      } catch (error) {
        // Rolled back: the cursor is where it was and no lease is held.
        options.onError(error, name);
        await fail(name, error, false);
        return;
      }
    }
  }

  /** Delivers one consumer's pending events, batch by batch, while it holds the lease. */
  async function deliver(consumer: EventConsumer): Promise<void> {
    if (!(await pending(consumer.name, consumer.types))) return;
    if (consumer.writeBatch) return deliverInTransactions(consumer.name, consumer.writeBatch);
    const leased = await lease(consumer.name, Date.now());
    if (leased === undefined) return;
    let position = leased;
    try {
      while (!stopped) {
        const events = await readBatch(db, position, consumer.types);
        if (events.length === 0) return;
        if (consumer.handleBatch) {
          try {
            await consumer.handleBatch(events);
          } catch (error) {
            options.onError(error, consumer.name);
            await fail(consumer.name, error);
            return;
          }
          position = Number(events.at(-1)?.position);
        } else
          for (const event of events) {
            try {
              await consumer.handle(event);
            } catch (error) {
              // Keep what succeeded before it (that resets the attempts: it is a new event that fails).
              if (position > leased && !(await advance(consumer.name, position))) return;
              options.onError(error, consumer.name);
              await fail(consumer.name, error);
              return;
            }
            position = event.position;
          }
        // Lost the lease (it ran out and another server took it): that server goes on from the cursor.
        if (!(await advance(consumer.name, position))) return;
        if (events.length < options.batchSize) return;
      }
    } finally {
      await release(consumer.name);
    }
  }

  async function run(): Promise<void> {
    // On PostgreSQL a wake may come before the writer's commit: wait for the commit lock, which the
    // writer holds until then (src/events/outbox).
    if (postgres) await sql`select pg_advisory_xact_lock(${EVENTS_COMMIT_LOCK}::bigint)`.execute(db);
    for (const consumer of consumers.values()) {
      if (stopped) return;
      try {
        await deliver(consumer);
      } catch (error) {
        options.onError(error, consumer.name);
      }
    }
  }

  function runOnce(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again && !stopped);
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  function wake(): void {
    if (stopped || wakeTimer) return;
    wakeTimer = setTimeout(() => {
      wakeTimer = undefined;
      runOnce().catch((error: unknown) => options.onError(error, '*'));
    }, options.wakeDelayMs);
    wakeTimer.unref();
  }

  return {
    register(consumer) {
      if (consumers.has(consumer.name))
        throw new Error(`event consumer ${consumer.name} is registered twice`);
      // A writeBatch consumer's cursor moves in its batch's transaction over every event: not filtered.
      if (consumer.types && consumer.writeBatch)
        throw new Error(`event consumer ${consumer.name}: types and writeBatch do not go together`);
      consumers.set(consumer.name, consumer);
      wake();
    },
    wake,
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      unsubscribe = onEventsRecorded(wake);
      pollTimer = setInterval(wake, options.pollMs);
      pollTimer.unref();
      wake();
    },
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearInterval(pollTimer);
      clearTimeout(wakeTimer);
      wakeTimer = undefined;
      await running;
    },
  };
}
