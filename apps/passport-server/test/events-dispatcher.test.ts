import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import type { StoredEvent } from '../src/events/dispatcher';
import { recordEvents } from '../src/events/outbox';
import { backend, startServer, type TestServer } from './support/server';

/** Waits for a condition; the deadline only catches a hang, it is no performance bound. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let streams = 0;
/** Events of one fresh stream, each carrying its index, written in one transaction. */
async function write(server: TestServer, count: number, stream = `user:dispatch-${++streams}`) {
  const userId = stream.slice('user:'.length);
  await server.app.db.transaction().execute(async (tx) => {
    await recordEvents(
      tx,
      Array.from({ length: count }, (_, index) => ({
        type: 'account.signed_in' as const,
        stream,
        actor: { kind: 'person' as const, userId },
        targetUserId: userId,
        data: { method: `m${index}`, newDevice: false },
      })),
      { at: Date.now() },
    );
  });
  return stream;
}

/**
 * A consumer that keeps what it was given, fails on demand, and may take a moment per event (so that
 * two dispatchers' runs overlap).
 */
function recorder(
  name: string,
  seen: StoredEvent[],
  { failOn, slowMs }: { failOn?: { method: string; times: number }; slowMs?: number } = {},
) {
  return {
    name,
    async handle(event: StoredEvent) {
      if (failOn && event.data.method === failOn.method && failOn.times > 0) {
        failOn.times -= 1;
        throw new Error('the consumer is down');
      }
      if (slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
      seen.push(event);
    },
  };
}

const methodsOf = (seen: StoredEvent[], stream: string) =>
  seen.filter((event) => event.stream === stream).map((event) => event.data.method);

/** Settings that let a second server open the first one's database. */
const sameDatabase = (server: TestServer): Partial<Config> => ({
  dataDir: server.config.dataDir,
  ...(server.config.databaseUrl
    ? { databaseUrl: server.config.databaseUrl, databaseSchema: server.config.databaseSchema }
    : {}),
});

/** The servers to close after each test; those opened on another's database only stop. */
const servers: { server: TestServer; follower: boolean }[] = [];
afterEach(async () => {
  const all = servers.splice(0);
  for (const { server } of all.filter((s) => s.follower)) await server.app.close();
  // Then the database's owner: dropping its schema, removing its directory.
  for (const { server } of all.filter((s) => !s.follower)) await server.close();
});
async function start(overrides: Partial<Config> = {}) {
  const server = await startServer(overrides, { limits: { eventRetryBaseMs: 50, eventRetryMaxMs: 200 } });
  servers.push({ server, follower: overrides.dataDir !== undefined });
  return server;
}

describe('the events dispatcher', () => {
  it('delivers each event in order, soon after its commit', async () => {
    const server = await start();
    const seen: StoredEvent[] = [];
    server.app.events.dispatcher.register(recorder('order', seen));
    const stream = await write(server, 5);
    await until(() => methodsOf(seen, stream).length === 5, 'five events');
    expect(methodsOf(seen, stream)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    const positions = seen.map((event) => event.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('retries a failing consumer from its cursor without skipping (at least once)', async () => {
    const server = await start();
    const seen: StoredEvent[] = [];
    const failOn = { method: 'm2', times: 3 };
    server.app.events.dispatcher.register(recorder('flaky', seen, { failOn }));
    const stream = await write(server, 4);
    await until(() => methodsOf(seen, stream).includes('m3'), 'the event after the failing one');
    expect(failOn.times).toBe(0);
    expect(methodsOf(seen, stream)).toEqual(['m0', 'm1', 'm2', 'm3']);
    const cursor = await server.app.db
      .selectFrom('event_cursors')
      .selectAll()
      .where('consumer', '=', 'flaky')
      .executeTakeFirstOrThrow();
    expect(cursor).toMatchObject({ attempts: 0, retry_at: null, last_error: null });
    expect(Number(cursor.position)).toBe(seen.at(-1)?.position);
  });

  it('the audit log keeps one row per event when the events are delivered again', async () => {
    const server = await start();
    const stream = await write(server, 3);
    const rowsOf = () =>
      server.app.db
        .selectFrom('audit_log')
        .select('id')
        .where('target_user_id', '=', stream.slice('user:'.length))
        .execute();
    await until(async () => (await rowsOf()).length === 3, 'three audit rows');
    const cursorOf = async () =>
      Number(
        (
          await server.app.db
            .selectFrom('event_cursors')
            .select('position')
            .where('consumer', '=', 'audit-log')
            .executeTakeFirstOrThrow()
        ).position,
      );
    const end = await cursorOf();
    // As after a crash between the copy and the cursor's move: everything again.
    await server.app.db
      .updateTable('event_cursors')
      .set({ position: 0 })
      .where('consumer', '=', 'audit-log')
      .execute();
    server.app.events.dispatcher.wake();
    await until(async () => (await cursorOf()) === end, 'the cursor back at the end');
    expect(await rowsOf()).toHaveLength(3);
  });

  it('resumes from its cursor after a restart', async () => {
    const first = await start();
    const before: StoredEvent[] = [];
    first.app.events.dispatcher.register(recorder('resume', before));
    const stream = await write(first, 2);
    await until(() => methodsOf(before, stream).length === 2, 'the first two');
    await first.app.close();
    servers.splice(0);

    // The second owns the database now (it closes it).
    const second = await start(sameDatabase(first));
    servers[0]!.follower = false;
    const after: StoredEvent[] = [];
    await write(second, 2, stream);
    second.app.events.dispatcher.register(recorder('resume', after));
    await until(() => methodsOf(after, stream).length === 2, 'the two written after the restart');
    expect(methodsOf(after, stream)).toEqual(['m0', 'm1']);
    expect(after.map((event) => event.position).every((p) => p > (before.at(-1)?.position ?? 0))).toBe(true);
  });

  it.runIf(backend === 'postgres')(
    'two servers on one database deliver each event to a consumer once, in order',
    async () => {
      const one = await start();
      const two = await start(sameDatabase(one));
      const seen: StoredEvent[] = [];
      // Both servers write at once, in many small transactions, and both deliver at once.
      const streamsWritten = await Promise.all(
        Array.from({ length: 20 }, (_, index) => write(index % 2 === 0 ? one : two, 3)),
      );
      one.app.events.dispatcher.register(recorder('shared', seen, { slowMs: 5 }));
      two.app.events.dispatcher.register(recorder('shared', seen, { slowMs: 5 }));
      await Promise.all([one.app.events.dispatcher.runOnce(), two.app.events.dispatcher.runOnce()]);
      await Promise.all(Array.from({ length: 10 }, (_, index) => write(index % 2 === 0 ? one : two, 3))).then(
        (more) => streamsWritten.push(...more),
      );
      const total = streamsWritten.length * 3;
      await Promise.all([one.app.events.dispatcher.runOnce(), two.app.events.dispatcher.runOnce()]);
      await until(() => streamsWritten.every((stream) => methodsOf(seen, stream).length >= 3), 'every event');
      // Both keep looking for a while: nothing arrives twice.
      await one.app.events.dispatcher.runOnce();
      await two.app.events.dispatcher.runOnce();
      const ours = seen.filter((event) => streamsWritten.includes(event.stream));
      expect(ours).toHaveLength(total);
      expect(new Set(ours.map((event) => event.id)).size).toBe(total);
      const positions = seen.map((event) => event.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      for (const stream of streamsWritten) expect(methodsOf(seen, stream)).toEqual(['m0', 'm1', 'm2']);
    },
  );
});
