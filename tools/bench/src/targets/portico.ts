// The real passport server, as `pnpm start` runs it on the embedded defaults (SQLite file in a
// temporary DATA_DIR, dev outbox), with logging off and the per-target/per-IP caps and the risk rules'
// captcha thresholds lifted so that one load generator on 127.0.0.1 can reach its throughput. Every other number (code lifetime, wrong-guess
// limit, session touch interval, argon2 parameters, synchronous=FULL) stays as shipped.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOptions } from '@node-rs/argon2';
import { buildServer } from '@portico/passport-server';
import { defineConfig } from '@portico/passport-server/config';
import cliProgress from 'cli-progress';
import { sql } from 'kysely';
import { serveParent } from '../ipc.ts';
import { emailOf, mobileOf, SEED_PASSWORD } from '../shared.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-'));
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

/**
 * Grows the users table to `total` accounts (mobile, e-mail and the one precomputed password hash each)
 * and gives every account one session row, so the sessions table grows with it. Batches of 1,000 rows in
 * one transaction each, through the server's own Kysely instance.
 */
async function seed({ total }: { total: number }) {
  const batch = 1000;
  const bar = new cliProgress.SingleBar(
    {
      format: `  seeding accounts [{bar}] {value}/{total} ({eta}s left)`,
      noTTYOutput: true,
      notTTYSchedule: 1000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(total, seeded);
  const now = Date.now();
  while (seeded < total) {
    const count = Math.min(batch, total - seeded);
    const users = Array.from({ length: count }, (_, k) => {
      const i = seeded + k;
      return {
        id: randomUUID(),
        mobile: mobileOf(i),
        email: emailOf(i),
        username: null,
        password_hash: passwordHash,
        screen_name: `bench${i}`,
        is_frozen: 0,
        created_at: now,
        updated_at: now,
      };
    });
    const sessions = users.map((user) => ({
      // Filler sessions: nobody holds these tokens; they only give the table its size.
      token_hash: randomBytes(32).toString('hex'),
      user_id: user.id,
      created_at: now,
      last_seen_at: now,
      expires_at: now + 7 * 24 * HOUR,
      absolute_expires_at: now + 30 * 24 * HOUR,
      user_agent: 'portico-bench',
      ip: '127.0.0.1',
      fp: null,
      did: null,
    }));
    await app.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute();
      await trx.insertInto('sessions').values(sessions).execute();
    });
    seeded += count;
    bar.update(seeded);
  }
  bar.stop();
  // As a production database would have: fresh planner statistics.
  await sql`analyze`.execute(app.db);
  return { seconds: (performance.now() - started) / 1000, ...(await stats()) };
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
  const count = async (table: 'users' | 'sessions' | 'one_time_codes') =>
    Number(
      (
        await app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count('users'),
    sessions: await count('sessions'),
    codes: await count('one_time_codes'),
  };
}

/** The query plans of the lookups on the measured paths: each must be an index search, never a scan. */
async function plans() {
  const explain = async (query: string) =>
    (await sql.raw<{ detail: string }>(`explain query plan ${query}`).execute(app.db)).rows
      .map((r) => r.detail)
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
    identities,
    hashParams: () => parseOptions(passwordHash),
    // CPU time of the event-loop thread and of the whole process so far, in µs: a cost that other load on
    // the machine does not distort the way it distorts a rate.
    cpu: () => {
      const thread = process.threadCpuUsage();
      const all = process.cpuUsage();
      return { eventLoop: thread.user + thread.system, process: all.user + all.system };
    },
  },
  async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
);
