// The real passport server, as `pnpm start` runs it: on the embedded defaults (SQLite file in a
// temporary DATA_DIR, dev outbox), or with BENCH_BACKEND=postgres on PostgreSQL and Redis (the schema
// and key prefix the parent names, which the parent drops afterwards), with logging off and the per-target/per-IP caps and the risk rules'
// captcha thresholds lifted so that one load generator on 127.0.0.1 can reach its throughput. Every other number (code lifetime, wrong-guess
// limit, session touch interval, argon2 parameters, synchronous=FULL) stays as shipped.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseOptions } from '@node-rs/argon2';
import { sql } from 'kysely';
import pg from 'pg';
import { serveParent } from '../ipc.ts';
import { profilerHandlers } from '../profile.ts';
import { BENCH_REGISTRATION_TOKEN, emailOf, SEED_PASSWORD } from '../shared.ts';

// BENCH_SERVER: the dist directory of another build of the server (a copy of an earlier commit's
// apps/passport-server/dist kept beside it, so its imports resolve) to measure before/after in one run.
const build = process.env.BENCH_SERVER;
const { buildServer } = (await import(
  build ? pathToFileURL(join(build, 'app.js')).href : '@portico/passport-server'
)) as typeof import('@portico/passport-server');
const { defineConfig } = (await import(
  build ? pathToFileURL(join(build, 'config.js')).href : '@portico/passport-server/config'
)) as typeof import('@portico/passport-server/config');

// Several processes of one deployment share a DATA_DIR (the server secret that signs cookies lives
// there): the parent names it, and removes it.
const sharedDataDir = process.env.BENCH_DATA_DIR;
const dataDir = sharedDataDir ?? mkdtempSync(join(tmpdir(), 'portico-bench-'));
const postgres = process.env.BENCH_BACKEND === 'postgres';
const HOUR = 3_600_000;
const app = await buildServer(
  // Second verification is off: the bench measures the credential check and session creation. With it on,
  // every seeded account (each has a mobile) signing in from the load generator's unremembered device
  // would answer 2046, which is a different flow (send code + continue).
  defineConfig({
    dataDir,
    logLevel: 'silent',
    port: 0,
    publicOrigin: 'http://localhost:3000',
    secondVerify: false,
    // Dynamic client registration (RFC 7591) for the token refresh case's client.
    openAuth: { registrationToken: BENCH_REGISTRATION_TOKEN, scopes: [], resourceServers: [] },
    ...(postgres
      ? {
          databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
          databaseSchema: process.env.BENCH_SCHEMA,
          redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          redisPrefix: process.env.BENCH_REDIS_PREFIX,
        }
      : {}),
  }),
  {
    limits: {
      sendCooldownMs: 1,
      sendPerTargetPerHour: 1e9,
      sendPerIpPerHour: 1e9,
      passwordFailuresPerAccount: 1e9,
      passwordFailuresPerIpPerHour: 1e9,
      // The risk rules (src/challenge/limits.ts) would demand a captcha after a few code sends or
      // sign-in failures from one address: one load generator is one address.
      challengeAfterSendsPerIp: 1e9,
      challengeAfterSendsPerDevice: 1e9,
      challengeAfterSendsPerTarget: 1e9,
      challengeAfterTargetFailures: 1e9,
      challengeAfterIpFailures: 1e9,
      challengeAfterDeviceFailures: 1e9,
      challengeAfterLookupsPerIp: 1e9,
      challengeAfterLookupsPerDevice: 1e9,
      checkRegisteredPerIpPerHour: 1e9,
      // The puzzle flood (issue 10) comes from one address too: lift the per-address and per-device
      // puzzle caps so every flood request reaches the render pool, the part under test.
      puzzlesPerIp: 1e9,
      puzzlesPerDevice: 1e9,
      // The collector's load (issue 18) comes from one address too.
      monitorBatchesPerIpPerMinute: 1e9,
      // No housekeeping sweep in the middle of a measurement.
      sweepIntervalMs: 24 * HOUR,
    },
  },
);
await app.listen({ host: '127.0.0.1', port: 0 });

const passwordHash = await app.passwords.hash(SEED_PASSWORD);
let seeded = 0;

/** A PostgreSQL connection for seeding, without the server pool's query timeout, in the bench's schema. */
async function seedConnection(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: app.config.databaseUrl });
  await client.connect();
  if (app.config.databaseSchema) await client.query(`set search_path to "${app.config.databaseSchema}"`);
  return client;
}
let seeder: pg.Client | undefined;

/** Rows generated per statement while seeding. */
const SEED_BATCH = 50_000;

/**
 * Grows the users table to `total` accounts (mobile, e-mail and the one precomputed password hash each)
 * and gives every account one session row, so the sessions table grows with it. The rows are generated
 * inside the database, SEED_BATCH per statement (PostgreSQL: generate_series, one statement inserting
 * both tables; SQLite: a recursive series, then the sessions of the new rows), with a progress bar on
 * stderr: a million accounts in tens of seconds instead of minutes of round trips.
 */
async function seed({ total }: { total: number }) {
  const started = performance.now();
  const now = Date.now();
  const week = now + 7 * 24 * HOUR;
  const month = now + 30 * 24 * HOUR;
  while (seeded < total) {
    const first = seeded;
    const last = Math.min(seeded + SEED_BATCH, total) - 1;
    if (postgres) {
      // The mobiles and e-mails are shared.ts's mobileOf and emailOf, written in SQL. Ids are
      // random-looking UUIDs (md5 of the index), so the primary key grows as it does with
      // randomUUID; the filler sessions' token hashes are random, nobody holds their tokens.
      const statement = sql`
        with u as (
          insert into users (id, mobile, email, username, password_hash, screen_name, is_frozen, created_at, updated_at)
          select md5('bench-user-' || i)::uuid::text, '+86138' || lpad(i::text, 8, '0'), 'user' || i || '@bench.example',
                 null, ${passwordHash}, 'bench' || i, 0, ${now}::bigint, ${now}::bigint
          from generate_series(${first}::int, ${last}::int) as i
          returning id)
        insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at, absolute_expires_at, user_agent, ip, fp, did)
        select md5(random()::text) || md5(random()::text), id, ${now}::bigint, ${now}::bigint, ${week}::bigint, ${month}::bigint,
               'portico-bench', '127.0.0.1', null, null
        from u`.compile(app.db);
      // On a connection of its own: the server's pool ends a query after 5 s, and a 50,000-row
      // statement on a busy machine takes longer.
      seeder ??= await seedConnection();
      await seeder.query(statement.sql, statement.parameters as unknown[]);
    } else {
      await app.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ top: number }>`select coalesce(max(rowid), 0) as top from users`.execute(
          trx,
        );
        const top = rows[0]?.top ?? 0;
        await sql`
          -- better-sqlite3 binds a JS number as a REAL: without the cast, 'user' || i reads user0.0.
          with recursive s(i) as (select cast(${first} as integer) union all select i + 1 from s where i < ${last})
          insert into users (id, mobile, email, username, password_hash, screen_name, is_frozen, created_at, updated_at)
          select lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                 || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
                 '+86138' || printf('%08d', i), 'user' || i || '@bench.example', null, ${passwordHash}, 'bench' || i, 0,
                 ${now}, ${now}
          from s`.execute(trx);
        await sql`
          insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at, absolute_expires_at, user_agent, ip, fp, did)
          select lower(hex(randomblob(32))), id, ${now}, ${now}, ${week}, ${month}, 'portico-bench', '127.0.0.1', null, null
          from users where rowid > ${top}`.execute(trx);
      });
    }
    seeded = last + 1;
    // A line per statement on stderr (each one holds the event loop, so a timed progress bar stalls).
    const elapsed = (performance.now() - started) / 1000;
    process.stderr.write(
      `  seeding accounts: ${seeded.toLocaleString('en')} / ${total.toLocaleString('en')} (${elapsed.toFixed(0)} s)\n`,
    );
  }
  // As a production database would have: fresh planner statistics.
  if (postgres) {
    seeder ??= await seedConnection();
    await seeder.query('analyze users');
    await seeder.query('analyze sessions');
  } else await sql`analyze`.execute(app.db);
  return { seconds: (performance.now() - started) / 1000, ...(await stats()) };
}

/** The database's size in bytes: the SQLite file's pages, or the schema's tables with their indexes. */
async function size() {
  if (postgres) {
    const { rows } = await sql<{ bytes: string }>`
      select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(app.db);
    return { bytes: Number(rows[0]?.bytes ?? 0) };
  }
  const { rows } = await sql<{ bytes: number }>`
    select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(app.db);
  return { bytes: Number(rows[0]?.bytes ?? 0) };
}

/**
 * Makes the live sessions of these accounts organisation-identity sessions, as subject login does: one
 * subject, each account a member holding one role, `sessions.deputy_id` set. The session check of such a
 * session is then measured against a personal one.
 */
async function identities({ indices }: { indices: number[] }) {
  const now = Date.now();
  const subjectId = randomUUID();
  const roleId = randomUUID();
  await app.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('subjects')
      .values({
        id: subjectId,
        name: 'Bench Ltd',
        base_infos: '{}',
        detail_infos: '{}',
        identity_card_sealed: null,
        real_name_sealed: null,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await trx
      .insertInto('roles')
      .values({
        id: roleId,
        subject_id: subjectId,
        role_key: 'bench',
        role_name: 'Bench',
        permissions: JSON.stringify(['member:read', 'role:read', 'subject:read']),
        description: '',
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const i of indices) {
      const user = await trx
        .selectFrom('users')
        .select('id')
        .where('email', '=', emailOf(i))
        .executeTakeFirstOrThrow();
      const deputyId = randomUUID();
      await trx
        .insertInto('deputies')
        .values({
          id: deputyId,
          subject_id: subjectId,
          user_id: user.id,
          deputy_name: `m${i}`,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .insertInto('deputy_roles')
        .values({ deputy_id: deputyId, role_id: roleId, subject_id: subjectId, created_at: now })
        .execute();
      await trx.updateTable('sessions').set({ deputy_id: deputyId }).where('user_id', '=', user.id).execute();
    }
  });
  return { members: indices.length };
}

async function stats() {
  const count = async (table: 'users' | 'sessions' | 'one_time_codes') => {
    if (postgres) {
      // Outside the server pool's 5 s timeout: counting ten million rows on a busy machine takes longer.
      seeder ??= await seedConnection();
      return Number((await seeder.query(`select count(*) as n from ${table}`)).rows[0]?.n);
    }
    return Number(
      (
        await app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  };
  return {
    users: await count('users'),
    sessions: await count('sessions'),
    codes: await count('one_time_codes'),
  };
}

/**
 * The query plans of the lookups on the measured paths (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on
 * PostgreSQL): each must be an index search, never a scan, whatever the table's size.
 */
async function plans() {
  const explain = async (query: string) =>
    (
      await sql
        .raw<Record<string, string>>(`${postgres ? 'explain (costs off)' : 'explain query plan'} ${query}`)
        .execute(app.db)
    ).rows
      .map((r) => (postgres ? r['QUERY PLAN'] : r.detail)?.trim())
      .join('; ');
  return {
    session: await explain(
      "select * from sessions inner join users on users.id = sessions.user_id where sessions.token_hash = 'x'",
    ),
    userByEmail: await explain("select * from users where email = 'x'"),
    userByMobile: await explain("select * from users where mobile = 'x'"),
    liveCode: await explain(
      "select * from one_time_codes where target = 'x' and purpose = 24 and channel = 'mobile' and used_at is null order by created_at desc limit 1",
    ),
  };
}

/** Challenge ids for the puzzle flood: each may draw 5 puzzles. */
async function challenges({ count }: { count: number }) {
  const ids: string[] = [];
  const kinds = ['slide', 'text', '3d', 'whirl'] as const;
  for (let i = 0; i < count; i++) {
    const data = await app.challenge.demand('/bench/flood', kinds[i % kinds.length]);
    ids.push((JSON.parse(Object.values(data)[0] as string) as { challenge_id: string }).challenge_id);
  }
  return { ids };
}

/** Renders so far, per kind: how many and the mean wall time of one (the pool times each). */
function renders() {
  return app.challenge.pool.stats();
}

serveParent(
  (app.server.address() as AddressInfo).port,
  {
    seed,
    challenges,
    renders,
    stats,
    plans,
    size,
    identities,
    hashParams: () => parseOptions(passwordHash),
    ...profilerHandlers(),
    // CPU time of the event-loop thread and of the whole process so far, in µs: a cost that other load on
    // the machine does not distort the way it distorts a rate.
    cpu: () => {
      const thread = process.threadCpuUsage();
      const all = process.cpuUsage();
      return { eventLoop: thread.user + thread.system, process: all.user + all.system };
    },
  },
  async () => {
    await seeder?.end();
    await app.close();
    if (!sharedDataDir) rmSync(dataDir, { recursive: true, force: true });
  },
);
