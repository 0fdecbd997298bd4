import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../src/app';
import { defineConfig } from '../src/config';
import { createMonitorEvents } from '../src/db/migrations';
import { ErrorCode } from '../src/protocol';
import { Browser, backend, freshMobile, QUIET_RISK } from './support/server';

/** A data directory of its own for each test of the describe, and a server started on it (and restarted). */
function ownDataDir() {
  let dataDir = '';
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'portico-files-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  return {
    dataDir: () => dataDir,
    start: () =>
      buildServer(defineConfig({ dataDir, logLevel: 'silent', publicOrigin: 'http://localhost:3000' }), {
        limits: QUIET_RISK,
      }),
  };
}

// On SQLite the store (counters, cooldowns, challenge state) has a file of its own at
// synchronous=NORMAL, so that a code send is not five fsyncs; accounts, sessions and codes stay in
// portico.db at FULL (src/db/database.ts).
describe.runIf(backend === 'sqlite')('the store file on SQLite', () => {
  const { start } = ownDataDir();

  it('holds the store in store.db at NORMAL, the accounts in portico.db at FULL, and keeps a cooldown across a restart', async () => {
    const mobile = freshMobile();
    let app = await start();
    try {
      const main = await sql<{ synchronous: number }>`pragma synchronous`.execute(app.db);
      expect(main.rows[0]?.synchronous).toBe(2);
      const storeDb = app.database.store;
      expect(storeDb).toBeDefined();
      if (!storeDb) return;
      const store = await sql<{ synchronous: number }>`pragma synchronous`.execute(storeDb);
      expect(store.rows[0]?.synchronous).toBe(1);

      const sent = await new Browser(app).post('/passport/web/send_code/', { mobile, type: 24 });
      expect(sent.body.message).toBe('success');
      const inStore = await storeDb.selectFrom('store_entries').select('key').execute();
      expect(inStore.map((row) => row.key)).toContain(`send:cooldown:mobile:${mobile}`);
      const inMain = await app.db.selectFrom('store_entries').select('key').execute();
      expect(inMain).toEqual([]);
      const codes = await app.db.selectFrom('one_time_codes').select('target').execute();
      expect(codes.map((row) => row.target)).toContain(mobile);
    } finally {
      await app.close();
    }

    // A restart (the process gone, its acknowledged store writes on disk) still knows the cooldown.
    app = await start();
    try {
      const again = await new Browser(app).post('/passport/web/send_code/', { mobile, type: 24 });
      expect(again.body).toMatchObject({ message: 'error', data: { error_code: ErrorCode.codeCooldown } });
    } finally {
      await app.close();
    }
  });
});

// WAL on every file the server opens: a reader never waits on the writer, and a commit is one append to
// the log (fsynced at FULL, at checkpoints only at NORMAL). journal_mode=WAL is kept in the file itself,
// so a connection opened afterwards, with no pragma of its own, still finds it.
describe.runIf(backend === 'sqlite')('the journal of every SQLite file', () => {
  const { start, dataDir } = ownDataDir();

  it('runs portico.db, store.db and monitor.db in WAL', async () => {
    const app = await start();
    const files: [string, Kysely<never> | undefined, number][] = [
      ['portico.db', app.db as unknown as Kysely<never>, 2],
      ['store.db', app.database.store as unknown as Kysely<never> | undefined, 1],
      ['monitor.db', app.monitoring.db as unknown as Kysely<never>, 1],
    ];
    try {
      for (const [file, db, synchronous] of files) {
        expect(db, file).toBeDefined();
        if (!db) continue;
        const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
        expect(journal.rows[0]?.journal_mode, file).toBe('wal');
        const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
        expect(sync.rows[0]?.synchronous, file).toBe(synchronous);
      }
      // A write goes to the log beside the file, not into it.
      const sent = await new Browser(app).post('/passport/web/send_code/', {
        mobile: freshMobile(),
        type: 24,
      });
      expect(sent.body.message).toBe('success');
      expect(existsSync(join(dataDir(), 'portico.db-wal'))).toBe(true);
      expect(existsSync(join(dataDir(), 'store.db-wal'))).toBe(true);
    } finally {
      await app.close();
    }
    for (const [file] of files) {
      const sqlite = new SQLite(join(dataDir(), file));
      try {
        expect(sqlite.pragma('journal_mode', { simple: true }), `${file}, opened afresh`).toBe('wal');
      } finally {
        sqlite.close();
      }
    }
  });
});

// The identity cache on SQLite follows migration 0017's triggers (src/db/database.ts): a database
// without one of them is refused at start, and a migration that stopped half-way finishes on the next.
describe.runIf(backend === 'sqlite')('the org_version triggers on SQLite', () => {
  const { start, dataDir } = ownDataDir();

  it('refuses to start when a trigger is missing, and a migration run again completes what is missing', async () => {
    let app = await start();
    await sql`drop trigger deputy_roles_insert_org_version`.execute(app.db);
    await app.close();
    await expect(start()).rejects.toThrow(/deputy_roles_insert_org_version/);

    // As if 0017 had stopped before its last triggers: forget that it (and every later one) ran, and
    // start again; each of them may run again.
    const sqlite = new SQLite(join(dataDir(), 'portico.db'));
    try {
      sqlite.prepare("delete from kysely_migration where name >= '0017_org_version'").run();
    } finally {
      sqlite.close();
    }
    app = await start();
    const triggers = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'trigger' and name like '%_org_version'`.execute(app.db);
    expect(triggers.rows).toHaveLength(12);
    await app.close();
  });
});

// Monitoring events have a file of their own on SQLite, written by a thread of their own
// (src/db/database.ts, src/domain/monitoring/writer.ts); a server that kept them in portico.db before
// moves them there on its next start.
describe.runIf(backend === 'sqlite')('the monitoring file on SQLite', () => {
  const { start, dataDir } = ownDataDir();

  it('moves the events a server kept in portico.db into monitor.db once, and writes new ones there', async () => {
    let app = await start();
    await app.close();
    // As a server before monitor.db left it: the table of migration 0015 in portico.db, with a row.
    const main = new SQLite(join(dataDir(), 'portico.db'));
    await createMonitorEvents(new Kysely<unknown>({ dialect: new SqliteDialect({ database: main }) }));
    main
      .prepare(
        `insert into monitor_events (id, at, day, app, flavour, kind, session, weight, page)
         values ('old-1', 1, '1970-01-01', '1128', 'web', 'session_start', 'oldsession', 1, '/login')`,
      )
      .run();
    main.close();

    app = await start();
    try {
      const tables = app.database.sqlite
        ?.prepare<[], string>("select name from sqlite_master where type = 'table'")
        .pluck()
        .all();
      expect(tables).not.toContain('monitor_events');
      const moved = await app.monitoring.db.selectFrom('monitor_events').select(['id', 'session']).execute();
      expect(moved).toEqual([{ id: 'old-1', session: 'oldsession' }]);
      const monitor = await sql<{ synchronous: number }>`pragma synchronous`.execute(app.monitoring.db);
      expect(monitor.rows[0]?.synchronous).toBe(1);

      const posted = await app.inject({
        method: 'POST',
        url: '/monitor/batch/',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        payload: JSON.stringify({
          v: 1,
          session: 'newsession1',
          app: '1128',
          flavour: 'web',
          seq: 0,
          sent_at: Date.now(),
          events: [{ kind: 'session_start', time: Date.now(), page: '/login', rate: 1 }],
        }),
      });
      expect(posted.json()).toEqual({ message: 'success', data: { accepted: 1 } });
      await app.monitoring.store.flush();
      const sessions = await app.monitoring.db.selectFrom('monitor_events').select('session').execute();
      expect(sessions.map((row) => row.session).sort()).toEqual(['newsession1', 'oldsession']);
    } finally {
      await app.close();
    }
    // Moved once: a third start finds nothing left to move and keeps what monitor.db holds.
    app = await start();
    try {
      expect(await app.monitoring.db.selectFrom('monitor_events').select('id').execute()).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});
