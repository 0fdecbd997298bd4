import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../src/db/compiled-once';
import { DatabaseStore } from '../src/store/database-store';
import { startServer, type TestServer } from './support/server';

/**
 * The store on the database (store.db on SQLite, the main database on PostgreSQL), whose queries are
 * built and compiled once (src/db/compiled-once.ts): each operation against a clock the test moves.
 */
let server: TestServer;
let clock = 1_000_000;
let store: DatabaseStore;

beforeAll(async () => {
  server = await startServer();
  store = new DatabaseStore(server.app.database.store ?? server.app.db, () => clock);
});
afterAll(() => server.close());

describe('the database store, compiled once', () => {
  it('counts, restarts a counter once it expired, and counts down to zero only', async () => {
    expect(await store.incr('c', 1000)).toBe(1);
    expect(await store.incr('c', 1000)).toBe(2);
    expect(await store.incr('other', 1000)).toBe(1);
    expect(await store.count('c')).toBe(2);
    await store.decrement('c');
    await store.decrement('c');
    await store.decrement('c');
    expect(await store.count('c')).toBe(0);
    clock += 1000;
    expect(await store.count('other')).toBe(0);
    expect(await store.incr('other', 500)).toBe(1);
    clock += 499;
    expect(await store.incr('other', 500)).toBe(2);
  });

  it('sets, replaces, takes once, and sets-if-absent only over nothing or an expired value', async () => {
    await store.set('k', 'one', 1000);
    await store.set('k', 'two', 1000);
    expect(await store.get('k')).toBe('two');
    expect(await store.setIfAbsent('k', 'three', 1000)).toBe(false);
    expect(await store.take('k')).toBe('two');
    expect(await store.take('k')).toBeNull();
    expect(await store.setIfAbsent('k', 'four', 100)).toBe(true);
    clock += 100;
    expect(await store.get('k')).toBeNull();
    expect(await store.setIfAbsent('k', 'five', 100)).toBe(true);
    expect(await store.get('k')).toBe('five');
  });

  it('refuses a value derived from a placeholder, which would compile to garbage', () => {
    const db = server.app.db;
    expect(() =>
      compiledOnce(db as never, ['now'], (v) =>
        db.selectFrom('users').select('id').where('id', '=', `${v.now}1`),
      ),
    ).toThrow(/derived from a placeholder/);
  });
});
