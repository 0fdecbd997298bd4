import { randomUUID } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/app';
import { MIGRATIONS_LOCK, openDatabase } from '../../src/db/database';
import { migrationProvider, ORG_VERSION_TRIGGERS } from '../../src/db/migrations';
import type { Database } from '../../src/db/schema';
import { newUserRow } from '../../src/domain/accounts/accounts';
import { isUniqueViolation } from '../../src/domain/organisations/organisations';
import { updateProfile } from '../../src/domain/profile/profile';
import { DEFAULT_QUOTAS } from '../../src/domain/profile/quotas';
import { activeIdentity } from '../../src/flows/identity-sign-in';
import {
  backend,
  dropSchema,
  freshMobile,
  QUIET_RISK,
  startServer,
  type TestServer,
} from '../support/server';

/**
 * The database's contract on the dialect of the project (SQLite, or PostgreSQL): the one migration set
 * from an empty database, and the query shapes the domain relies on — uniqueness conflicts it turns
 * into answers, transactions and the row lock of a counted change, counts and millisecond times coming
 * back as numbers, and on SQLite the org_version triggers behind the identity cache. The feature suites
 * run on SQLite only; what they need of PostgreSQL is held here. (The Redis project keeps SQLite as
 * its database, so it skips this file.)
 */
const dialect = backend === 'postgres' ? 'postgres' : 'sqlite';

let server: TestServer;
beforeAll(async () => {
  if (backend === 'redis') return;
  server = await startServer();
});
afterAll(() => server?.close());

/** A fresh account through the domain's own row builder. */
async function account(mobile = freshMobile()) {
  const row = newUserRow(Date.now(), { mobile });
  await server.app.db.insertInto('users').values(row).execute();
  return row;
}

/**
 * A subject managed by a new account, with a member holding one role: rows in each of the four tables
 * an identity is read from (five inserts).
 */
async function organisation() {
  const db = server.app.db;
  const [manager, member] = [await account(), await account()];
  const now = Date.now();
  const times = { created_at: now, updated_at: now };
  const subject = { id: randomUUID(), name: 'Contract Ltd', base_infos: '{}', detail_infos: '{}' };
  await db
    .insertInto('subjects')
    .values({
      ...subject,
      identity_card_sealed: null,
      real_name_sealed: null,
      created_by: manager.id,
      ...times,
    })
    .execute();
  const deputy = (user: string, isManager: number) => ({
    id: randomUUID(),
    subject_id: subject.id,
    user_id: user,
    deputy_name: isManager ? 'Boss' : 'Member',
    is_manager: isManager,
    ...times,
  });
  const [boss, deputy2] = [deputy(manager.id, 1), deputy(member.id, 0)];
  await db.insertInto('deputies').values([boss, deputy2]).execute();
  const role = { id: randomUUID(), subject_id: subject.id, role_key: 'reader', role_name: 'Reader' };
  await db
    .insertInto('roles')
    .values({ ...role, permissions: '["member:read"]', description: '', ...times })
    .execute();
  await db
    .insertInto('deputy_roles')
    .values({ deputy_id: deputy2.id, role_id: role.id, subject_id: subject.id, created_at: now })
    .execute();
  return { subject, manager: boss, member, deputy: deputy2, role };
}

/**
 * Every table of the server's own schema and its columns, as the dialect's catalog lists them. On
 * PostgreSQL the catalog lists every schema of the database, other servers' included.
 */
async function tablesOf(app: TestServer['app']): Promise<Record<string, string[]>> {
  const tables = await app.db.introspection.getTables();
  const schema = app.config.databaseSchema;
  return Object.fromEntries(
    tables
      .filter((t) => !t.isView && !t.name.startsWith('kysely_'))
      .filter((t) => !schema || t.schema === schema)
      .map((t) => [t.name, t.columns.map((c) => c.name).sort()]),
  );
}

describe.skipIf(backend === 'redis')(`the database contract on ${dialect}`, () => {
  describe('migrations', () => {
    it('bring an empty database to the latest migration, each once, and a restart finds nothing to do', async () => {
      const all = Object.keys(await migrationProvider.getMigrations()).sort();
      const ran = async () =>
        (
          await sql<{ name: string }>`select name from kysely_migration order by name`.execute(server.app.db)
        ).rows.map((row) => row.name);
      expect(await ran()).toEqual(all);
      const again = await buildServer(server.config, { limits: QUIET_RISK });
      try {
        expect(await ran()).toEqual(all);
        expect(again.database.dialect).toBe(dialect);
      } finally {
        await again.close();
      }
    });

    it.runIf(backend === 'sqlite')(
      'mark, on the way to SCIM acceptance, the Users provisioned before it whose account SCIM made',
      async () => {
        const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
        try {
          const migrator = new Migrator({ db, provider: migrationProvider });
          expect((await migrator.migrateTo('0035_user_language')).error).toBeUndefined();
          const at = 1_700_000_000_000;
          const linked = newUserRow(at - 86_400_000, { mobile: freshMobile() });
          const made = newUserRow(at + 3, { mobile: freshMobile() });
          await db.insertInto('users').values([linked, made]).execute();
          await db
            .insertInto('subjects')
            .values({
              id: 'subject',
              name: 'Provisioned Ltd',
              base_infos: '{}',
              detail_infos: '{}',
              identity_card_sealed: null,
              real_name_sealed: null,
              created_by: linked.id,
              created_at: at,
              updated_at: at,
            })
            .execute();
          const user = (id: string, user_id: string) => ({
            id,
            subject_id: 'subject',
            user_id,
            user_name: id,
            user_name_key: id,
            external_id: null,
            attributes: '{}',
            created_at: at,
            updated_at: at,
          });
          await db
            .insertInto('scim_users')
            .values([user('linked', linked.id), user('made', made.id)])
            .execute();
          expect((await migrator.migrateToLatest()).error).toBeUndefined();
          const rows = await db
            .selectFrom('scim_users')
            .select(['id', 'own_account'])
            .orderBy('id')
            .execute();
          expect(rows).toEqual([
            { id: 'linked', own_account: 0 },
            { id: 'made', own_account: 1 },
          ]);
        } finally {
          await db.destroy();
        }
      },
    );

    it.runIf(backend === 'postgres')(
      'let several servers start at once on a new schema: one migrates, the others wait for it',
      async () => {
        for (let trial = 0; trial < 2; trial++) {
          const schema = `t_race_${randomUUID().slice(0, 8)}`;
          const config = { ...server.config, databaseSchema: schema };
          const starts = await Promise.allSettled(
            [0, 1, 2].map(() => openDatabase(config).then((handle) => handle.close())),
          );
          await dropSchema(server.config.databaseUrl as string, schema);
          expect(starts.map((start) => (start.status === 'rejected' ? String(start.reason) : 'ok'))).toEqual([
            'ok',
            'ok',
            'ok',
          ]);
        }
      },
    );

    it.runIf(backend === 'postgres')(
      'migrate under a session lock: a server starting while another holds it waits, then migrates',
      async () => {
        const schema = `t_wait_${randomUUID().slice(0, 8)}`;
        const holder = new pg.Client({ connectionString: server.config.databaseUrl });
        await holder.connect();
        try {
          await holder.query('select pg_advisory_lock($1::bigint)', [String(MIGRATIONS_LOCK)]);
          const opening = openDatabase({ ...server.config, databaseSchema: schema });
          // However long the start waits, nothing of the schema may appear while the lock is held.
          await new Promise((resolve) => setTimeout(resolve, 500));
          const early = await holder.query('select 1 from pg_namespace where nspname = $1', [schema]);
          expect(early.rowCount).toBe(0);
          await holder.query('select pg_advisory_unlock($1::bigint)', [String(MIGRATIONS_LOCK)]);
          await (await opening).close();
          const after = await holder.query('select 1 from pg_namespace where nspname = $1', [schema]);
          expect(after.rowCount).toBe(1);
        } finally {
          await holder.end();
          await dropSchema(server.config.databaseUrl as string, schema);
        }
      },
    );

    it.runIf(backend === 'postgres')(
      'refuse the start, naming the holder, when another server keeps the migrations lock past the wait',
      async () => {
        const schema = `t_stuck_${randomUUID().slice(0, 8)}`;
        // A server migrating another database of this PostgreSQL holds the same lock there (advisory
        // locks are per database): it is not the one in the way, and must not be named.
        const elsewhere = new URL(server.config.databaseUrl as string);
        elsewhere.pathname = '/postgres';
        const neighbour = new pg.Client({
          connectionString: elsewhere.toString(),
          application_name: 'another database',
        });
        await neighbour.connect();
        await neighbour.query('select pg_advisory_lock($1::bigint)', [String(MIGRATIONS_LOCK)]);
        const holder = new pg.Client({
          connectionString: server.config.databaseUrl,
          application_name: 'stuck migrator',
        });
        await holder.connect();
        try {
          await holder.query('select pg_advisory_lock($1::bigint)', [String(MIGRATIONS_LOCK)]);
          const { rows } = await holder.query<{ pid: number }>('select pg_backend_pid() as pid');
          const refused = await openDatabase({
            ...server.config,
            databaseSchema: schema,
            migrationWaitSeconds: 1,
          }).then(
            () => 'started',
            (error: Error) => error.message,
          );
          expect(refused).toContain('migrations lock for over 1 s');
          expect(refused).toContain(`process ${rows[0]!.pid} (stuck migrator)`);
          expect(refused).not.toContain('another database');
          const made = await holder.query('select 1 from pg_namespace where nspname = $1', [schema]);
          expect(made.rowCount).toBe(0);
        } finally {
          await holder.end();
          await neighbour.end();
        }
        // Once the holder is gone, the next start migrates.
        await (await openDatabase({ ...server.config, databaseSchema: schema })).close();
        await dropSchema(server.config.databaseUrl as string, schema);
      },
    );

    it.runIf(backend === 'postgres')(
      'make the same tables and columns as on SQLite (but the SQLite-only identity-cache version and the events moved to monitor.db)',
      async () => {
        const sqlite = await startServer({ databaseUrl: undefined, databaseSchema: undefined });
        try {
          expect(sqlite.app.database.dialect).toBe('sqlite');
          const onSqlite = await tablesOf(sqlite.app);
          delete onSqlite.org_version;
          const onPostgres = await tablesOf(server.app);
          delete onPostgres.monitor_events;
          expect(onPostgres).toEqual(onSqlite);
        } finally {
          await sqlite.close();
        }
      },
    );
  });

  describe('uniqueness conflicts', () => {
    it('refuse a second account with the same mobile, as an error the domain recognises', async () => {
      const first = await account();
      const error = await server.app.db
        .insertInto('users')
        .values(newUserRow(Date.now(), { mobile: first.mobile }))
        .execute()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeDefined();
      expect(isUniqueViolation(error)).toBe(true);
    });

    it('make one of many concurrent registrations of one number win, and the others find it', async () => {
      const value = freshMobile();
      const made = await Promise.all(
        Array.from({ length: 8 }, () => server.app.accounts.create({ kind: 'mobile', value }, null)),
      );
      expect(made.filter((user) => user !== null)).toHaveLength(1);
      const found = await Promise.all(
        Array.from({ length: 8 }, () => server.app.accounts.findOrCreate({ kind: 'mobile', value })),
      );
      expect(new Set(found.map((f) => f.user.id)).size).toBe(1);
      expect(found.every((f) => !f.created)).toBe(true);
    });

    it('admit one manager per subject (the partial unique index) and any number of members', async () => {
      const { subject } = await organisation();
      const now = Date.now();
      const deputy = async (isManager: number) =>
        server.app.db
          .insertInto('deputies')
          .values({
            id: randomUUID(),
            subject_id: subject.id,
            user_id: (await account()).id,
            deputy_name: 'Someone',
            is_manager: isManager,
            created_at: now,
            updated_at: now,
          })
          .execute();
      await deputy(0);
      await deputy(0);
      const error = await deputy(1).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isUniqueViolation(error)).toBe(true);
    });
  });

  describe('transactions', () => {
    it('roll back every write of a transaction that fails', async () => {
      const row = newUserRow(Date.now(), { mobile: freshMobile() });
      await expect(
        server.app.db.transaction().execute(async (trx) => {
          await trx.insertInto('users').values(row).execute();
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      const found = await server.app.db.selectFrom('users').select('id').where('id', '=', row.id).execute();
      expect(found).toEqual([]);
    });

    it('serialise concurrent counted changes of one account (the row lock): the quota is never overrun', async () => {
      const user = await account();
      const times = DEFAULT_QUOTAS['profile.name']!.times;
      const outcomes = await Promise.allSettled(
        Array.from({ length: times + 5 }, (_, i) =>
          server.app.db
            .transaction()
            .execute((trx) =>
              updateProfile(trx, server.app.config.profileQuotas, user.id, { name: `Name ${i}` }, Date.now()),
            ),
        ),
      );
      const done = outcomes.filter((o) => o.status === 'fulfilled');
      expect(done).toHaveLength(times);
      for (const o of outcomes)
        if (o.status === 'rejected')
          expect((o.reason as { errorName?: string }).errorName).toBe('updateLimitReached');
      const counted = await server.app.db
        .selectFrom('profile_updates')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Number(counted.n)).toBe(times);
    });
  });

  describe('values', () => {
    it('answer counts, sums and maxima as numbers', async () => {
      const user = await account();
      const at = Date.now();
      for (const field of ['a', 'b', 'c'])
        await server.app.db
          .insertInto('profile_updates')
          .values({ id: randomUUID(), user_id: user.id, namespace: 'contract', field, at })
          .execute();
      const row = await server.app.db
        .selectFrom('profile_updates')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('at').as('latest'), eb.fn.sum('at').as('total')])
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.n).toBe(3);
      expect(row.latest).toBe(at);
      expect(Number(row.total)).toBe(3 * at);
    });

    it('keep millisecond times past 2^32 exactly, as numbers, and compare them in queries', async () => {
      const far = Date.UTC(2100, 0, 1, 12, 30, 45, 678);
      const row = newUserRow(far, { mobile: freshMobile() });
      await server.app.db.insertInto('users').values(row).execute();
      const back = await server.app.db
        .selectFrom('users')
        .select(['created_at', 'updated_at'])
        .where('id', '=', row.id)
        .where('created_at', '>', far - 1)
        .where('created_at', '<', far + 1)
        .executeTakeFirstOrThrow();
      expect(back).toEqual({ created_at: far, updated_at: far });
      expect(typeof back.created_at).toBe('number');
    });
  });

  describe('the identity cache', () => {
    it.runIf(backend === 'sqlite')(
      'has every org_version trigger bump the version on insert, update and delete of the four tables',
      async () => {
        const version = async () =>
          Number(
            (await sql<{ v: number }>`select v from org_version where id = 1`.execute(server.app.db)).rows[0]
              ?.v,
          );
        const triggers = (
          await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(
            server.app.db,
          )
        ).rows.map((row) => row.name);
        for (const trigger of ORG_VERSION_TRIGGERS) expect(triggers).toContain(trigger.name);

        let before = await version();
        const { subject, deputy, role } = await organisation();
        // Five inserts: the subject, two members in one statement (a trigger per row), a role, a link.
        expect(await version()).toBe(before + 5);
        const steps: [string, () => Promise<unknown>][] = [
          [
            'subjects update',
            () =>
              server.app.db
                .updateTable('subjects')
                .set({ name: 'Renamed' })
                .where('id', '=', subject.id)
                .execute(),
          ],
          [
            'deputies update',
            () =>
              server.app.db
                .updateTable('deputies')
                .set({ deputy_name: 'Chief' })
                .where('id', '=', deputy.id)
                .execute(),
          ],
          [
            'roles update',
            () =>
              server.app.db.updateTable('roles').set({ is_banned: 1 }).where('id', '=', role.id).execute(),
          ],
          [
            'deputy_roles update',
            () =>
              server.app.db
                .updateTable('deputy_roles')
                .set({ created_at: 1 })
                .where('deputy_id', '=', deputy.id)
                .execute(),
          ],
          [
            'deputy_roles delete',
            () => server.app.db.deleteFrom('deputy_roles').where('deputy_id', '=', deputy.id).execute(),
          ],
          ['roles delete', () => server.app.db.deleteFrom('roles').where('id', '=', role.id).execute()],
          [
            'deputies delete',
            () => server.app.db.deleteFrom('deputies').where('subject_id', '=', subject.id).execute(),
          ],
          [
            'subjects delete',
            () => server.app.db.deleteFrom('subjects').where('id', '=', subject.id).execute(),
          ],
        ];
        for (const [what, step] of steps) {
          before = await version();
          await step();
          expect(await version(), what).toBeGreaterThan(before);
        }
      },
    );

    it.runIf(backend === 'postgres')('is not kept on PostgreSQL: every identity is read afresh', async () => {
      const { member, deputy } = await organisation();
      const user = await server.app.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', member.id)
        .executeTakeFirstOrThrow();
      const session = {
        id: 'x',
        userId: user.id,
        user,
        createdAt: 0,
        expiresAt: 0,
        absoluteExpiresAt: 0,
        deputyId: deputy.id,
        verifiedAt: null,
        factorVerifiedAt: null,
      };
      const read = activeIdentity(server.app, session);
      expect(read).toBeInstanceOf(Promise);
      expect((await read)?.permissions).toEqual(['member:read']);
      await server.app.db
        .updateTable('roles')
        .set({ is_banned: 1 })
        .where('subject_id', '=', deputy.subject_id)
        .execute();
      expect((await activeIdentity(server.app, session))?.permissions).toEqual([]);
    });
  });
});
