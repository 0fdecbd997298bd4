import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Whether `db` (a transaction or a handle) runs on PostgreSQL: row locks (`FOR UPDATE`) are taken
 * there; SQLite runs one writer at a time and a transaction holds its one connection, so it needs none.
 */
export const onPostgres = <DB>(db: Kysely<DB>): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;
