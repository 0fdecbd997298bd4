import { type Kysely, sql } from 'kysely';
import type { StoreSchema } from '../db/schema';
import type { Store } from './store';

/** The Store in the `store_entries` table; expired rows are swept by the app's housekeeping timer. */
export class DatabaseStore implements Store {
  constructor(
    private readonly db: Kysely<StoreSchema>,
    private readonly now: () => number = Date.now,
  ) {}

  async incr(key: string, ttlMs: number): Promise<number> {
    const now = this.now();
    const row = await this.db
      .insertInto('store_entries')
      .values({ key, value: null, counter: 1, expires_at: now + ttlMs })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          counter: sql<number>`case when store_entries.expires_at <= ${now} then 1 else store_entries.counter + 1 end`,
          expires_at: sql<number>`case when store_entries.expires_at <= ${now} then ${now + ttlMs} else store_entries.expires_at end`,
        }),
      )
      .returning('counter')
      .executeTakeFirstOrThrow();
    return Number(row.counter);
  }

  async decrement(key: string): Promise<void> {
    await this.db
      .updateTable('store_entries')
      .set({ counter: sql<number>`counter - 1` })
      .where('key', '=', key)
      .where('expires_at', '>', this.now())
      .where('counter', '>', 0)
      .execute();
  }

  async count(key: string): Promise<number> {
    const row = await this.db
      .selectFrom('store_entries')
      .select('counter')
      .where('key', '=', key)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    return row ? Number(row.counter) : 0;
  }

  async get(key: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('store_entries')
      .select('value')
      .where('key', '=', key)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    return row?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const expires = this.now() + ttlMs;
    await this.db
      .insertInto('store_entries')
      .values({ key, value, counter: 0, expires_at: expires })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, counter: 0, expires_at: expires }))
      .execute();
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const row = await this.db
      .insertInto('store_entries')
      .values({ key, value, counter: 0, expires_at: now + ttlMs })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ value, counter: 0, expires_at: now + ttlMs })
          .where('store_entries.expires_at', '<=', now),
      )
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  async take(key: string): Promise<string | null> {
    const row = await this.db
      .deleteFrom('store_entries')
      .where('key', '=', key)
      .where('expires_at', '>', this.now())
      .returning('value')
      .executeTakeFirst();
    return row?.value ?? null;
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('store_entries').where('key', '=', key).execute();
  }

  async sweep(): Promise<void> {
    await this.db.deleteFrom('store_entries').where('expires_at', '<=', this.now()).execute();
  }

  async close(): Promise<void> {}
}
