import { Redis } from 'ioredis';
import type { Store } from './store';

const INCR_WITH_TTL = `local v = redis.call('INCR', KEYS[1])
if v == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return v`;

// Only a live, positive counter goes down: DECR alone would create a key without a TTL.
const DECREMENT = `local v = tonumber(redis.call('GET', KEYS[1]))
if v and v > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** How long one Redis command may take before the request fails with 503 (loopback or LAN: ~1 ms). */
export const COMMAND_TIMEOUT_MS = 2_000;

/** The Store in Redis: keys carry a prefix and Redis expires them itself. */
export class RedisStore implements Store {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    // Commands fail fast while Redis is away instead of queueing: callers fail closed. A Redis that
    // stops answering without closing the connection (a network partition) would hold a command, and so
    // the request, forever: every command gives up after COMMAND_TIMEOUT_MS (a 503, see app.ts).
    this.redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: COMMAND_TIMEOUT_MS,
    });
    this.redis.on('error', () => {});
  }

  async connect(): Promise<void> {
    await this.redis.connect();
  }

  async incr(key: string, ttlMs: number): Promise<number> {
    return Number(await this.redis.eval(INCR_WITH_TTL, 1, this.prefix + key, ttlMs));
  }

  async decrement(key: string): Promise<void> {
    await this.redis.eval(DECREMENT, 1, this.prefix + key);
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'PX', ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  take(key: string): Promise<string | null> {
    return this.redis.getdel(this.prefix + key);
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async sweep(): Promise<void> {}

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  /** Deletes every key under the prefix (tests use a prefix per run). */
  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 500);
      if (keys.length) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
