import { type Kysely, sql } from 'kysely';
import { compiledOnce } from '../db/compiled-once';
import type { StoreSchema } from '../db/schema';
import type { Store } from './store';

/** The Store in the `store_entries` table; expired rows are swept by the app's housekeeping timer. */
export class DatabaseStore implements Store {
  // Each hot operation is built and compiled once (../db/compiled-once.ts): these run on every
  // rate-limited request.
  private readonly incrQuery;
  private readonly decrementQuery;
  private readonly countQuery;
  private readonly getQuery;
  private readonly setQuery;
  private readonly setIfAbsentQuery;
  private readonly takeQuery;

  constructor(
    private readonly db: Kysely<StoreSchema>,
    private readonly now: () => number = Date.now,
  ) {
    const on = db as unknown as Kysely<never>;
    const entries = () => db.insertInto('store_entries');
    this.incrQuery = compiledOnce(on, ['key', 'now', 'expires'], (v) =>
      entries()
        .values({ key: v.key, value: null, counter: 1, expires_at: v.expires })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            counter: sql<number>`case when store_entries.expires_at <= ${v.now} then 1 else store_entries.counter + 1 end`,
            expires_at: sql<number>`case when store_entries.expires_at <= ${v.now} then ${v.expires} else store_entries.expires_at end`,
          }),
        )
        .returning('counter'),
    );
    this.decrementQuery = compiledOnce(on, ['key', 'now'], (v) =>
      db
        .updateTable('store_entries')
        .set({ counter: sql<number>`counter - 1` })
        .where('key', '=', v.key)
        .where('expires_at', '>', v.now)
        .where('counter', '>', 0),
    );
    this.countQuery = compiledOnce(on, ['key', 'now'], (v) =>
      db
        .selectFrom('store_entries')
        .select('counter')
        .where('key', '=', v.key)
        .where('expires_at', '>', v.now),
    );
    this.getQuery = compiledOnce(on, ['key', 'now'], (v) =>
      db.selectFrom('store_entries').select('value').where('key', '=', v.key).where('expires_at', '>', v.now),
    );
    this.setQuery = compiledOnce(on, ['key', 'value', 'expires'], (v) =>
      entries()
        .values({ key: v.key, value: v.value, counter: 0, expires_at: v.expires })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ value: v.value, counter: 0, expires_at: v.expires }),
        ),
    );
    this.setIfAbsentQuery = compiledOnce(on, ['key', 'value', 'now', 'expires'], (v) =>
      entries()
        .values({ key: v.key, value: v.value, counter: 0, expires_at: v.expires })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({ value: v.value, counter: 0, expires_at: v.expires })
            .where('store_entries.expires_at', '<=', v.now),
        )
        .returning('key'),
    );
    this.takeQuery = compiledOnce(on, ['key', 'now'], (v) =>
      db
        .deleteFrom('store_entries')
        .where('key', '=', v.key)
        .where('expires_at', '>', v.now)
        .returning('value'),
    );
  }

  async incr(key: string, ttlMs: number): Promise<number> {
    const now = this.now();
    const [row] = await this.incrQuery({ key, now, expires: now + ttlMs });
    if (!row) throw new Error('the store counter upsert returned no row');
    return Number(row.counter);
  }

  async decrement(key: string): Promise<void> {
    await this.decrementQuery({ key, now: this.now() });
  }

  async count(key: string): Promise<number> {
    const [row] = await this.countQuery({ key, now: this.now() });
    return row ? Number(row.counter) : 0;
  }

  async get(key: string): Promise<string | null> {
    const [row] = await this.getQuery({ key, now: this.now() });
    return row?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.setQuery({ key, value, expires: this.now() + ttlMs });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const [row] = await this.setIfAbsentQuery({ key, value, now, expires: now + ttlMs });
    return row !== undefined;
  }

  async take(key: string): Promise<string | null> {
    const [row] = await this.takeQuery({ key, now: this.now() });
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
