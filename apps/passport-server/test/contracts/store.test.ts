import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/db/compiled-once';
import { DatabaseStore } from '../../src/store/database-store';
import { RedisStore } from '../../src/store/redis-store';
import type { Store } from '../../src/store/store';
import { backend, startServer, type TestServer } from '../support/server';

/**
 * The Store's contract (src/store/store.ts) on the backend of the project: the database store on
 * SQLite's store.db and on PostgreSQL, the Redis store on Redis. Every rate limit, cooldown, one-time
 * ticket and race in the feature suites stands on these behaviours, and the feature suites run on the
 * SQLite store only: what they need of Redis and PostgreSQL is held here.
 *
 * The database store reads a clock the test moves, so its boundaries are checked to the millisecond;
 * Redis expires keys on its own clock, so there a test waits past a short time to live (a lower bound
 * only: a loaded machine waits longer, never less) and reads the remaining time to live to tell a
 * window that was kept from one that was extended.
 */

interface Subject {
  store: Store;
  /** Moves time on: the test clock of the database store, a real wait on Redis. */
  advance(ms: number): Promise<void>;
  /** True where the clock is the test's: boundaries to the millisecond. */
  exactClock: boolean;
  /** The remaining time to live of a key in ms; null when absent; Infinity when it never expires. */
  remainingMs(key: string): Promise<number | null>;
  close(): Promise<void>;
}

let server: TestServer;
let subject: Subject;

async function databaseSubject(server: TestServer): Promise<Subject> {
  let clock = 1_000_000;
  const db = server.app.database.store ?? server.app.db;
  return {
    store: new DatabaseStore(db, () => clock),
    exactClock: true,
    async advance(ms) {
      clock += ms;
    },
    async remainingMs(key) {
      const row = await db
        .selectFrom('store_entries')
        .select('expires_at')
        .where('key', '=', key)
        .where('expires_at', '>', clock)
        .executeTakeFirst();
      return row ? Number(row.expires_at) - clock : null;
    },
    async close() {},
  };
}

async function redisSubject(server: TestServer): Promise<Subject> {
  const { redisUrl, redisPrefix } = server.config;
  if (!redisUrl) throw new Error('the redis project runs with REDIS_URL');
  const probe = new Redis(redisUrl, { lazyConnect: true });
  await probe.connect();
  return {
    store: server.app.store,
    exactClock: false,
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    async remainingMs(key) {
      const ttl = await probe.pttl(redisPrefix + key);
      return ttl === -2 ? null : ttl === -1 ? Number.POSITIVE_INFINITY : ttl;
    },
    async close() {
      probe.disconnect();
    },
  };
}

beforeAll(async () => {
  server = await startServer();
  subject = backend === 'redis' ? await redisSubject(server) : await databaseSubject(server);
});
afterAll(async () => {
  await subject?.close();
  await server?.close();
});

let serial = 0;
/** A key no other test touches. */
const fresh = (name: string) => `contract:${name}:${++serial}`;
/** A time to live no test outlives without moving time on. */
const LONG = 600_000;
/** A time to live a test waits past (on Redis, for real). */
const SHORT = 100;
const pastShort = () => subject.advance(SHORT + 50);

describe(`the store contract on ${backend}`, () => {
  describe('counters', () => {
    it('count from one, per key, and read back the live count (0 when absent)', async () => {
      const { store } = subject;
      const [a, b] = [fresh('a'), fresh('b')];
      expect(await store.count(a)).toBe(0);
      expect(await store.incr(a, LONG)).toBe(1);
      expect(await store.incr(a, LONG)).toBe(2);
      expect(await store.incr(b, LONG)).toBe(1);
      expect(await store.count(a)).toBe(2);
      expect(await store.count(b)).toBe(1);
    });

    it('increment atomically: of many concurrent increments each sees its own count', async () => {
      const key = fresh('race');
      const counts = await Promise.all(Array.from({ length: 40 }, () => subject.store.incr(key, LONG)));
      expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(await subject.store.count(key)).toBe(40);
    });

    it('keep the window of the first hit: a later hit does not extend it', async () => {
      const key = fresh('window');
      await subject.store.incr(key, LONG);
      await subject.advance(SHORT);
      await subject.store.incr(key, LONG);
      const left = await subject.remainingMs(key);
      expect(left).not.toBeNull();
      expect(left).toBeLessThanOrEqual(LONG - SHORT);
    });

    it('expire with their window and start again at one with a new window', async () => {
      const key = fresh('expiry');
      expect(await subject.store.incr(key, SHORT)).toBe(1);
      expect(await subject.store.incr(key, SHORT)).toBe(2);
      await pastShort();
      expect(await subject.store.count(key)).toBe(0);
      expect(await subject.store.incr(key, LONG)).toBe(1);
      expect(await subject.remainingMs(key)).toBeGreaterThan(LONG - 60_000);
    });

    it.runIf(backend !== 'redis')(
      'expire at the millisecond their window ends (the test clock)',
      async () => {
        const key = fresh('edge');
        await subject.store.incr(key, 500);
        await subject.advance(499);
        expect(await subject.store.incr(key, 500)).toBe(2);
        await subject.advance(1);
        expect(await subject.store.count(key)).toBe(0);
        expect(await subject.store.incr(key, 500)).toBe(1);
      },
    );

    it('count down to zero and no further, atomically, and never create or revive a counter', async () => {
      const { store } = subject;
      const key = fresh('down');
      for (let i = 0; i < 5; i++) await store.incr(key, LONG);
      await Promise.all(Array.from({ length: 12 }, () => store.decrement(key)));
      expect(await store.count(key)).toBe(0);
      expect(await store.incr(key, LONG)).toBe(1);

      const absent = fresh('absent');
      await store.decrement(absent);
      expect(await subject.remainingMs(absent)).toBeNull();
      expect(await store.incr(absent, LONG)).toBe(1);

      const expired = fresh('expired');
      await store.incr(expired, SHORT);
      await pastShort();
      await store.decrement(expired);
      expect(await store.count(expired)).toBe(0);
      expect(await store.incr(expired, LONG)).toBe(1);
    });

    it('keep their time to live through a decrement', async () => {
      const key = fresh('ttl');
      await subject.store.incr(key, LONG);
      await subject.store.incr(key, LONG);
      await subject.store.decrement(key);
      const left = await subject.remainingMs(key);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(LONG);
    });
  });

  describe('values', () => {
    it('set, replace and read a value until it expires', async () => {
      const { store } = subject;
      const key = fresh('value');
      expect(await store.get(key)).toBeNull();
      await store.set(key, 'one', LONG);
      await store.set(key, 'two', SHORT);
      expect(await store.get(key)).toBe('two');
      await pastShort();
      expect(await store.get(key)).toBeNull();
    });

    it('delete a value', async () => {
      const key = fresh('delete');
      await subject.store.set(key, 'x', LONG);
      await subject.store.delete(key);
      expect(await subject.store.get(key)).toBeNull();
      await subject.store.delete(key);
    });

    it.runIf(backend !== 'redis')(
      'expire a value at the millisecond its time ends (the test clock)',
      async () => {
        const key = fresh('value-edge');
        await subject.store.set(key, 'v', 1000);
        await subject.advance(999);
        expect(await subject.store.get(key)).toBe('v');
        await subject.advance(1);
        expect(await subject.store.get(key)).toBeNull();
      },
    );
  });

  describe('one-time state', () => {
    it('is taken once: the value goes with the first taker', async () => {
      const key = fresh('ticket');
      await subject.store.set(key, 'ticket', LONG);
      expect(await subject.store.take(key)).toBe('ticket');
      expect(await subject.store.take(key)).toBeNull();
      expect(await subject.store.get(key)).toBeNull();
    });

    it('is taken once under concurrency: of many takers exactly one gets it', async () => {
      const key = fresh('ticket-race');
      await subject.store.set(key, 'ticket', LONG);
      const taken = await Promise.all(Array.from({ length: 30 }, () => subject.store.take(key)));
      expect(taken.filter((value) => value !== null)).toEqual(['ticket']);
    });

    it('cannot be taken once expired', async () => {
      const key = fresh('ticket-expired');
      await subject.store.set(key, 'ticket', SHORT);
      await pastShort();
      expect(await subject.store.take(key)).toBeNull();
    });
  });

  describe('locks (set if absent)', () => {
    it('go to the first caller and stay held until they expire; then the next caller gets them', async () => {
      const { store } = subject;
      const key = fresh('lock');
      expect(await store.setIfAbsent(key, 'first', SHORT)).toBe(true);
      expect(await store.setIfAbsent(key, 'second', SHORT)).toBe(false);
      expect(await store.get(key)).toBe('first');
      await pastShort();
      expect(await store.setIfAbsent(key, 'third', LONG)).toBe(true);
      expect(await store.get(key)).toBe('third');
      expect(await store.setIfAbsent(key, 'fourth', LONG)).toBe(false);
    });

    it('go to exactly one of many concurrent callers', async () => {
      const key = fresh('lock-race');
      const won = await Promise.all(
        Array.from({ length: 30 }, (_, i) => subject.store.setIfAbsent(key, `caller ${i}`, LONG)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await subject.store.get(key)).toBe(`caller ${won.indexOf(true)}`);
    });

    it('go to exactly one of many concurrent callers once the holder expired', async () => {
      const key = fresh('lock-expired-race');
      await subject.store.setIfAbsent(key, 'old', SHORT);
      await pastShort();
      const won = await Promise.all(
        Array.from({ length: 30 }, (_, i) => subject.store.setIfAbsent(key, `caller ${i}`, LONG)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('carry their own time to live', async () => {
      const key = fresh('lock-ttl');
      await subject.store.setIfAbsent(key, 'held', LONG);
      const left = await subject.remainingMs(key);
      expect(left).toBeGreaterThan(LONG - 60_000);
      expect(left).toBeLessThanOrEqual(LONG);
    });
  });

  it('sweeps what expired and keeps what is live', async () => {
    const { store } = subject;
    const [gone, kept] = [fresh('swept'), fresh('kept')];
    await store.set(gone, 'x', SHORT);
    await store.incr(kept, LONG);
    await pastShort();
    await store.sweep();
    expect(await store.get(gone)).toBeNull();
    expect(await subject.remainingMs(gone)).toBeNull();
    expect(await store.count(kept)).toBe(1);
    if (backend !== 'redis') {
      const db = server.app.database.store ?? server.app.db;
      const rows = await db.selectFrom('store_entries').select('key').where('key', '=', gone).execute();
      expect(rows).toEqual([]);
    }
  });
});

describe.runIf(backend === 'redis')('the Redis store', () => {
  it('keeps each prefix apart and clears only its own', async () => {
    const url = server.config.redisUrl!;
    const one = new RedisStore(url, `${server.config.redisPrefix}one:`);
    const two = new RedisStore(url, `${server.config.redisPrefix}two:`);
    await one.connect();
    await two.connect();
    try {
      await one.set('k', 'one', LONG);
      await two.set('k', 'two', LONG);
      expect(await one.get('k')).toBe('one');
      await one.clear();
      expect(await one.get('k')).toBeNull();
      expect(await two.get('k')).toBe('two');
    } finally {
      await two.clear();
      await one.close();
      await two.close();
    }
  });
});

describe.runIf(backend !== 'redis')('the database store', () => {
  it('refuses a query value derived from a placeholder, which would compile to garbage', () => {
    const db = server.app.db;
    expect(() =>
      compiledOnce(db as never, ['now'], (v) =>
        db.selectFrom('users').select('id').where('id', '=', `${v.now}1`),
      ),
    ).toThrow(/derived from a placeholder/);
  });
});
