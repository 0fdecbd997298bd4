import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { recordEvents } from '../../events/outbox';
import type { SecretSealer } from './secrets';
import { signedHeaders } from './secrets';
import { type AttemptResult, sendWebhook } from './sender';

export interface WebhookWorkerOptions {
  /** The server clock (the test clock moves it): when a retry is due, when the window ends. */
  now(): number;
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a delivery is retried, from when it was queued, before it is given up. */
  retryWindowMs: number;
  /** How long a finished delivery (succeeded or given up) is kept, from when it was queued. */
  retentionMs: number;
  timeoutMs: number;
  maxResponseBytes: number;
  leaseMs: number;
  concurrency: number;
  privateTargets: boolean;
  sealer: SecretSealer;
  /** Tells the operators an endpoint was disabled (after the commit). */
  onDisabled(endpoint: { id: string; url: string; subjectId: string | null }): Promise<void>;
  onError(error: unknown): void;
}

export interface WebhookWorker {
  /** Looks for due deliveries soon. */
  wake(): void;
  /** Sends what is due now, queue after queue, until nothing more is (tests; the timers call it). */
  runOnce(): Promise<void>;
  /**
   * Deletes the finished deliveries (and their attempts) queued before the retention period; a pending
   * one stays whatever its age. Answers how many went.
   */
  sweep(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/** The delay before the next attempt after `attempts` failed ones: doubling, capped. */
export const retryDelay = (attempts: number, baseMs: number, maxMs: number): number =>
  Math.min(baseMs * 2 ** Math.min(attempts - 1, 30), maxMs);

const isSuccess = (result: AttemptResult) =>
  result.status !== null && result.status >= 200 && result.status < 300;

/**
 * Sends webhook deliveries (docs/webhooks.md): at least once, in order per endpoint and stream (a
 * delivery waits while an earlier one of its stream to the same endpoint is still pending), retried
 * with doubling delays for the retry window, then given up; an endpoint whose every delivery failed
 * for the whole window is disabled. Several servers share the work: a delivery is claimed with a lease
 * (a conditional UPDATE) before it is sent, and a crashed server's lease runs out, so the delivery is
 * sent again (the receiver drops it by `webhook-id`).
 */
export function createWebhookWorker(db: Kysely<Database>, options: WebhookWorkerOptions): WebhookWorker {
  const owner = randomUUID();
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  let wakeTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;

  /** The head of each queue (endpoint, stream) that is due, unclaimed and whose endpoint is enabled. */
  const dueHeads = (now: number, wall: number) =>
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.event_id',
        'd.payload',
        'd.attempts',
        'd.created_at',
        'e.id as endpoint_id',
        'e.url',
        'e.subject_id',
        'e.secret',
        'e.previous_secret',
        'e.previous_secret_until',
      ])
      .where('d.status', '=', 'pending')
      .where('e.enabled', '=', 1)
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', wall)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as p')
              .select('p.id')
              .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
              .whereRef('p.stream', '=', 'd.stream')
              .where('p.status', '=', 'pending')
              .whereRef('p.event_position', '<', 'd.event_position'),
          ),
        ),
      )
      .orderBy('d.event_position')
      .limit(options.concurrency * 4)
      .execute();
  type Head = Awaited<ReturnType<typeof dueHeads>>[number];

  async function claim(id: string, wall: number): Promise<boolean> {
    const taken = await db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: owner, lease_until: wall + options.leaseMs })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', wall)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /** Sends one delivery and records the attempt; answers whether it succeeded. */
  async function attempt(head: Head): Promise<boolean> {
    const secrets = [options.sealer.open(head.secret)];
    if (head.previous_secret && Number(head.previous_secret_until) > options.now())
      secrets.push(options.sealer.open(head.previous_secret));
    const headers = signedHeaders(head.event_id, head.payload, secrets);
    const result = await sendWebhook(head.url, headers, head.payload, {
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      privateTargets: options.privateTargets,
    });
    const now = options.now();
    const ok = isSuccess(result);
    const attempts = Number(head.attempts) + 1;
    const givenUp = !ok && now - Number(head.created_at) >= options.retryWindowMs;
    let disabled: { id: string; url: string; subjectId: string | null } | undefined;
    await db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('webhook_deliveries')
        .set({
          status: ok ? 'succeeded' : givenUp ? 'failed' : 'pending',
          attempts,
          next_attempt_at:
            ok || givenUp ? now : now + retryDelay(attempts, options.retryBaseMs, options.retryMaxMs),
          lease_owner: null,
          lease_until: null,
          last_status: result.status,
          last_latency_ms: result.latencyMs,
          last_response: result.excerpt,
          last_error: result.error?.slice(0, 500) ?? null,
          ...(ok ? { delivered_at: now } : {}),
        })
        .where('id', '=', head.id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      // Lost the lease (this attempt outlived it): another server records its own attempt.
      if (Number(updated.numUpdatedRows) !== 1) return;
      await tx
        .insertInto('webhook_attempts')
        .values({
          id: randomUUID(),
          delivery_id: head.id,
          at: now,
          status: result.status,
          latency_ms: result.latencyMs,
          response: result.excerpt,
          error: result.error?.slice(0, 500) ?? null,
        })
        .execute();
      if (ok) {
        await tx
          .updateTable('webhook_endpoints')
          .set({ failing_since: null })
          .where('id', '=', head.endpoint_id)
          .execute();
        return;
      }
      const endpoint = await tx
        .selectFrom('webhook_endpoints')
        .select(['failing_since', 'enabled'])
        .where('id', '=', head.endpoint_id)
        .executeTakeFirst();
      if (!endpoint) return;
      const failingSince =
        endpoint.failing_since === null ? Number(head.created_at) : Number(endpoint.failing_since);
      // Persistent failure: this delivery was given up and nothing succeeded since the failures began.
      const disable = givenUp && endpoint.enabled === 1 && now - failingSince >= options.retryWindowMs;
      await tx
        .updateTable('webhook_endpoints')
        .set({
          failing_since: failingSince,
          ...(disable ? { enabled: 0, disabled_reason: 'failing', updated_at: now } : {}),
        })
        .where('id', '=', head.endpoint_id)
        .execute();
      if (disable) {
        disabled = { id: head.endpoint_id, url: head.url, subjectId: head.subject_id };
        await recordEvents(
          tx,
          [
            {
              type: 'webhook.endpoint_disabled',
              stream: `webhook:${head.endpoint_id}`,
              actor: { kind: 'system' },
              subjectId: head.subject_id,
              data: { host: new URL(head.url).host, failingSince },
            },
          ],
          { at: now },
        );
      }
    });
    if (disabled) await options.onDisabled(disabled).catch(options.onError);
    return ok;
  }

  /** One round: every due head claimed and sent, `concurrency` at a time; whether any succeeded. */
  async function round(): Promise<boolean> {
    const wall = Date.now();
    const heads = await dueHeads(options.now(), wall);
    let progressed = false;
    let next = 0;
    const lane = async () => {
      while (!stopped && next < heads.length) {
        const head = heads[next++]!;
        if (!(await claim(head.id, wall))) continue;
        // One delivery that cannot be sent (a secret sealed with another SECRET, a failed write) is
        // reported and left to its lease's end; the round's other deliveries go on.
        try {
          if (await attempt(head)) progressed = true;
        } catch (error) {
          options.onError(error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, heads.length) }, lane));
    return progressed;
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
          // A delivered head lets the next of its queue go: keep going while deliveries succeed.
          while (await round()) if (stopped) break;
        } while (again);
      } catch (error) {
        options.onError(error);
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
      void runOnce();
    }, 20);
    wakeTimer.unref();
  }

  async function sweep(): Promise<number> {
    const before = options.now() - options.retentionMs;
    return db.transaction().execute(async (tx) => {
      const finished = tx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', 'in', ['succeeded', 'failed'])
        .where('created_at', '<', before);
      await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', finished).execute();
      const gone = await tx
        .deleteFrom('webhook_deliveries')
        .where('status', 'in', ['succeeded', 'failed'])
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(gone.numDeletedRows);
    });
  }

  return {
    wake,
    runOnce,
    sweep,
    start() {
      if (!stopped) return;
      stopped = false;
      pollTimer = setInterval(wake, options.pollMs);
      pollTimer.unref();
      wake();
    },
    async stop() {
      stopped = true;
      clearInterval(pollTimer);
      clearTimeout(wakeTimer);
      wakeTimer = undefined;
      await running;
    },
  };
}
