import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config';
import {
  createMonitorEvents,
  createStoreEntries,
  migrationProvider,
  ORG_VERSION_TRIGGERS,
} from './migrations';
import { GuardedKysely, guardedDialect } from './operation-scope';
import type { Database, MonitorSchema, StoreSchema } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for the start banner: a file path or the PostgreSQL host/db/schema. */
  location: string;
  /**
   * The better-sqlite3 connection behind `db` on SQLite (undefined on PostgreSQL), for the one hot read
   * that is worth a statement prepared once (the session lookup). Use it only while
   * `sqlite.inTransaction` is false: Kysely shares this one connection, and a read inside another
   * request's open transaction would see that transaction's uncommitted rows.
   */
  sqlite?: SQLite.Database;
  /**
   * On SQLite, the store's own file (`store.db`, WAL, `synchronous=NORMAL`): rate-limit counters,
   * cooldowns and challenge state, the short-lived state that a scaled-out deployment keeps in Redis.
   * On PostgreSQL, the main database's pool through a handle of its own, outside the operations' guard.
   */
  store?: Kysely<StoreSchema>;
  /**
   * On SQLite, the monitoring events' own file (`monitor.db`, WAL): `db` reads it on the main thread and
   * the collector's writer thread writes it (src/domain/monitoring/writer.ts). Undefined on PostgreSQL,
   * where the events are a table of the main database.
   */
  monitor?: { db: Kysely<MonitorSchema>; file: string };
  close(): Promise<void>;
}

/**
 * The connection as Kysely's SQLite dialect sees it, with a statement cache: Kysely's driver calls
 * `prepare` for every query, and preparing costs more than running a simple indexed query. Statements
 * are keyed by their SQL text (parameters are bound per run); Kysely runs one query at a time on the
 * connection (its mutex), so a cached statement is never busy when it is handed out again. Bounded:
 * queries built with a variable number of placeholders each make their own text.
 */
export function cachingDatabase(sqlite: SQLite.Database, size = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement === undefined) {
        if (cache.size >= size) cache.clear();
        statement = sqlite.prepare(text);
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

const INT8_OID = 20;

/** Bounds on waiting for PostgreSQL; sign-in queries take milliseconds. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const QUERY_TIMEOUT_MS = 5_000;

/** A WAL-mode SQLite connection with a busy timeout; `synchronous` as the caller decides. */
function openSqliteFile(file: string, synchronous: 'FULL' | 'NORMAL'): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

function openSqlite(config: Config): DatabaseHandle {
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'portico.db');
  // FULL: an acknowledged write survives power loss, not only a process crash (NORMAL risks the last
  // transactions on power loss). See docs/operations.md before relaxing it.
  const sqlite = openSqliteFile(file, 'FULL');
  const db = new GuardedKysely<Database>({
    dialect: new SqliteDialect({ database: cachingDatabase(sqlite) }),
  });
  // The store's counters and short-lived state in a file of their own at NORMAL: a commit there survives
  // a process crash but may be lost with the last moments before a power loss, which is what Redis
  // without persistence offers a scaled-out deployment. A code send writes five store entries; at FULL
  // each was an fsync on the event-loop thread (docs/benchmarks.md).
  const storeSqlite = openSqliteFile(join(config.dataDir, 'store.db'), 'NORMAL');
  const store = new Kysely<StoreSchema>({
    dialect: new SqliteDialect({ database: cachingDatabase(storeSqlite) }),
  });
  // Monitoring events in a file of their own, written by a thread of their own: their writes never wait
  // on, nor hold, the accounts' write lock, and at NORMAL (set by the writer) a commit costs no fsync.
  const monitorFile = join(config.dataDir, 'monitor.db');
  const monitor = new Kysely<MonitorSchema>({
    dialect: new SqliteDialect({ database: cachingDatabase(openSqliteFile(monitorFile, 'NORMAL')) }),
  });
  return {
    db,
    dialect: 'sqlite',
    location: file,
    sqlite,
    store,
    monitor: { db: monitor, file: monitorFile },
    close: async () => {
      await monitor.destroy();
      await store.destroy();
      await db.destroy();
    },
  };
}

/** A pool for `url`; `queryTimeoutMs` undefined means a query may take as long as it needs. */
function postgresPool(
  config: Config,
  url: string,
  max: number,
  queryTimeoutMs?: number,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
) {
  const schema = config.databaseSchema;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: connectTimeoutMs,
    ...(queryTimeoutMs === undefined ? {} : { query_timeout: queryTimeoutMs }),
    keepAlive: true,
    // BIGINT millisecond times come back as numbers, as they do from SQLite.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return pool;
}

function openPostgres(config: Config, url: string): DatabaseHandle {
  const schema = config.databaseSchema;
  // PostgreSQL gone quiet (a partition, a hung server) must not hold requests forever: getting a
  // connection and each query give up after these bounds, and the request answers 503 (app.ts).
  const pool = postgresPool(config, url, 10, QUERY_TIMEOUT_MS);
  // An idle client losing its server (a PostgreSQL restart) must not crash the process.
  pool.on('error', () => {});
  // Nor a checked-out one: pg-pool removes its error listener while a client is lent out, so a
  // connection reset between two queries of a request was an uncaught 'error' event that ended the
  // process. The request's next query fails instead (a 503) and the pool drops the client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({ dialect: guardedDialect(new PostgresDialect({ pool })) });
  // The store's counters and cooldowns through a pool and a handle of their own, which the operations'
  // guard does not watch: like Redis, the store is outside every transaction by design (the outbound
  // gate charges its budgets from inside an operation, and a refused send must stay charged when the
  // operation rolls back). A pool of its own, so that operations holding every connection of the main
  // pool never wait for one to charge a budget; half the main pool's bounds, because a request may
  // charge the store before it reads the database and the two must stay within the time one request
  // may take while PostgreSQL is away.
  const storePool = postgresPool(config, url, 4, QUERY_TIMEOUT_MS / 2, CONNECT_TIMEOUT_MS / 2);
  storePool.on('error', () => {});
  storePool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const store = new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool: storePool }) });
  const host = new URL(url);
  return {
    db,
    store,
    dialect: 'postgres',
    location: `postgresql://${host.host}${host.pathname}${schema ? ` (schema ${schema})` : ''}`,
    close: async () => {
      await store.destroy();
      await db.destroy();
    },
  };
}

/** The session lock that one starting server holds while it migrates (any fixed 64-bit key). */
export const MIGRATIONS_LOCK = 7_204_118_552_031n;

/**
 * Waits for the migrations lock, but not forever: a server stuck half-way through its migrations (its
 * connection alive, its process hung) would otherwise keep every later start waiting without a word.
 * Past the wait the start is refused with the holder's process id, so an operator can end it.
 * `lock_timeout` bounds only this wait; it is reset before the migrations, whose own DDL may
 * rightly wait on a busy table.
 */
async function takeMigrationsLock(db: Kysely<Database>, waitSeconds: number) {
  await sql`select set_config('lock_timeout', ${`${waitSeconds * 1000}ms`}, false)`.execute(db);
  try {
    await sql`select pg_advisory_lock(${MIGRATIONS_LOCK}::bigint)`.execute(db);
  } catch (error) {
    if ((error as { code?: string }).code !== '55P03') throw error;
    const holder = await sql<{ pid: number; application_name: string; backend_start: Date }>`
      select a.pid, a.application_name, a.backend_start from pg_locks l
      join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted
        -- An advisory lock is the database's own: a server migrating another database on this
        -- PostgreSQL holds a lock of the same numbers there, and is not the one in the way.
        and l.database = (select oid from pg_database where datname = current_database())
        and l.classid = ${Number(MIGRATIONS_LOCK >> 32n)} and l.objid = ${Number(MIGRATIONS_LOCK & 0xffffffffn)}
        and l.objsubid = 1`.execute(db);
    const who = holder.rows[0];
    throw new Error(
      `another server has held the migrations lock for over ${waitSeconds} s (MIGRATION_WAIT_SECONDS)` +
        (who
          ? `: PostgreSQL process ${who.pid}${who.application_name ? ` (${who.application_name})` : ''}, connected since ${who.backend_start.toISOString()}; if it is stuck, end it with select pg_terminate_backend(${who.pid})`
          : '; it has let go since: start again'),
    );
  } finally {
    await sql`select set_config('lock_timeout', '0', false)`.execute(db);
  }
}

/** Opens the database the config names and brings its schema up to date. */
export async function openDatabase(config: Config): Promise<DatabaseHandle> {
  const handle = config.databaseUrl ? openPostgres(config, config.databaseUrl) : openSqlite(config);
  try {
    if (handle.dialect === 'postgres' && config.databaseUrl) {
      // Migrations run on a connection of their own without the per-query bound: building an index on
      // a large table may take minutes, and a start must not fail half-way through for being slow.
      // Servers started at once on a new schema would race to create it and its tables: the first
      // takes a session lock, the others wait and then find nothing to do.
      const migrationDb = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: postgresPool(config, config.databaseUrl, 1) }),
      });
      try {
        await takeMigrationsLock(migrationDb, config.migrationWaitSeconds);
        if (config.databaseSchema)
          await sql`create schema if not exists ${sql.id(config.databaseSchema)}`.execute(migrationDb);
        await migrate(migrationDb, config.databaseSchema);
      } finally {
        // Closing the connection ends its session, and the lock with it.
        await migrationDb.destroy();
      }
    } else {
      await migrate(handle.db, undefined);
    }
    if (handle.sqlite) assertOrgVersionTriggers(handle.sqlite);
    if (handle.store) await createStoreEntries(handle.store as Kysely<unknown>, true);
    if (handle.monitor) {
      await createMonitorEvents(handle.monitor.db as Kysely<unknown>, true);
      if (handle.sqlite) moveMonitorEvents(handle.sqlite, handle.monitor.file);
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * The identity cache on SQLite (src/domain/organisations/identity-lookup.ts) is only as good as
 * migration 0017's triggers, and a later migration that rebuilt one of their tables would drop them
 * silently: the server refuses to start without every one.
 */
function assertOrgVersionTriggers(sqlite: SQLite.Database) {
  const present = new Set(
    sqlite.prepare<[], string>("select name from sqlite_master where type = 'trigger'").pluck().all(),
  );
  const missing = ORG_VERSION_TRIGGERS.filter((t) => !present.has(t.name)).map((t) => t.name);
  if (missing.length)
    throw new Error(`the org_version triggers are missing (${missing.join(', ')}); see migration 0017`);
}

/**
 * Migration 0015 made the monitoring table in portico.db; on SQLite the events now live in monitor.db.
 * Rows a server kept there before are moved once, and the old table is dropped. Each step commits on its
 * own (a transaction over two WAL files is not atomic), so the copy ignores rows already copied: a
 * start cut short between the two steps repeats them safely. Both tables come from createMonitorEvents,
 * so their columns are in the same order.
 */
function moveMonitorEvents(sqlite: SQLite.Database, monitorFile: string) {
  const old = sqlite
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'monitor_events'")
    .get();
  if (!old) return;
  sqlite.prepare('attach database ? as monitor').run(monitorFile);
  try {
    sqlite.exec('insert or ignore into monitor.monitor_events select * from main.monitor_events');
    sqlite.exec('drop table main.monitor_events');
  } finally {
    sqlite.exec('detach database monitor');
  }
}

/** Brings the schema up to date: the one migration set, on SQLite and PostgreSQL alike. */
async function migrate(db: Kysely<Database>, schema: string | undefined) {
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
