// The import of a 100,000-user export (docs/importing-users.md, docs/benchmarks.md "Importing users"):
// an Auth0 export made here (JSON lines, bcrypt at cost 10), imported by the built command
// (`apps/passport-server/dist/import-users.js`) into a fresh SQLite DATA_DIR and, when DATABASE_URL is
// set, a fresh PostgreSQL schema; run a second time (every record already imported); then a sample of
// the users signs in with their old passwords through the server, whose hashes become argon2id.
// `pnpm --filter @portico/bench bench:import` after `pnpm exec turbo run build --filter=@portico/passport-server`.
// USERS=10000 for a shorter run; BACKENDS=sqlite or BACKENDS=postgres for one of the two.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hash } from '@node-rs/bcrypt';
import { buildServer } from '@portico/passport-server';
import { type Config, defineConfig } from '@portico/passport-server/config';
import { sql } from 'kysely';

const USERS = Number(process.env.USERS ?? 100_000);
/** Distinct passwords (and real cost-10 bcrypt hashes): the import never checks a hash, so a pool suffices. */
const POOL = 32;
const SAMPLE = 20;

const require = createRequire(import.meta.url);
const command = join(
  dirname(require.resolve('@portico/passport-server/package.json')),
  'dist/import-users.js',
);

const passwordOf = (i: number) => `imported-password-${i % POOL}`;
const emailOf = (i: number) => `imported${i}@bench.example`;

async function makeExport(file: string) {
  const hashes = await Promise.all(Array.from({ length: POOL }, (_, i) => hash(passwordOf(i), 10)));
  const lines: string[] = [];
  for (let i = 0; i < USERS; i++)
    lines.push(
      JSON.stringify({
        user_id: `auth0|${i.toString(16).padStart(24, '0')}`,
        email: emailOf(i),
        email_verified: true,
        name: `Imported ${i}`,
        passwordHash: hashes[i % POOL],
      }),
    );
  writeFileSync(file, `${lines.join('\n')}\n`);
}

interface Run {
  seconds: number;
  summary: string;
}

function importOnce(file: string, env: Record<string, string>): Promise<Run> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [command, '--from', 'auth0', '--file', file], {
      env: { PATH: process.env.PATH ?? '', PUBLIC_ORIGIN: 'http://localhost:3000', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    child.once('error', fail);
    child.once('exit', (code) => {
      if (code !== 0) fail(new Error(`the import exited with ${code}: ${stdout}${stderr}`));
      else
        done({
          seconds: (performance.now() - started) / 1000,
          summary: stdout.trim(),
        });
    });
  });
}

/** Signs in SAMPLE imported users with their old passwords; answers how many hashes became argon2id. */
async function signInSample(config: Config, dropSchema: boolean): Promise<number> {
  const app = await buildServer(config, {
    limits: {
      passwordFailuresPerIpPerHour: 1e9,
      challengeAfterTargetFailures: 1e9,
      challengeAfterIpFailures: 1e9,
    },
  });
  try {
    let rehashed = 0;
    for (let k = 0; k < SAMPLE; k++) {
      const i = Math.floor((k * USERS) / SAMPLE) + (k % POOL);
      const first = await app.inject({ method: 'GET', url: '/passport/web/account/info/' });
      const csrf = first.cookies.find((c) => c.name === 'passport_csrf_token')?.value ?? '';
      const cookie = first.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const answer = await app.inject({
        method: 'POST',
        url: '/passport/web/user/login/',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie,
          'x-tt-passport-csrf-token': csrf,
        },
        payload: new URLSearchParams({ email: emailOf(i), password: passwordOf(i) }).toString(),
      });
      if (answer.json().message !== 'success') throw new Error(`user ${i} could not sign in: ${answer.body}`);
      const row = await app.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', emailOf(i))
        .executeTakeFirstOrThrow();
      if (row.password_hash?.startsWith('$argon2id$')) rehashed += 1;
    }
    return rehashed;
  } finally {
    // The PostgreSQL run's schema goes with it.
    if (dropSchema && config.databaseSchema)
      await sql`drop schema if exists ${sql.id(config.databaseSchema)} cascade`.execute(app.db);
    await app.close();
  }
}

const work = mkdtempSync(join(tmpdir(), 'portico-import-bench-'));
const file = join(work, 'auth0-users.json');
const rows: string[] = [];
try {
  process.stderr.write(`Making an Auth0 export of ${USERS.toLocaleString('en')} users…\n`);
  await makeExport(file);
  const backends: { name: string; env: Record<string, string>; config: Config }[] = [
    {
      name: 'SQLite',
      env: { DATA_DIR: join(work, 'sqlite') },
      config: defineConfig({ dataDir: join(work, 'sqlite'), logLevel: 'silent', secondVerify: false }),
    },
  ];
  const only = process.env.BACKENDS;
  if (only === 'postgres') backends.pop();
  const url = process.env.DATABASE_URL;
  if (url && only !== 'sqlite') {
    const schema = `import_bench_${process.pid}`;
    backends.push({
      name: 'PostgreSQL',
      env: { DATA_DIR: join(work, 'pg'), DATABASE_URL: url, DATABASE_SCHEMA: schema },
      config: defineConfig({
        dataDir: join(work, 'pg'),
        databaseUrl: url,
        databaseSchema: schema,
        logLevel: 'silent',
        secondVerify: false,
      }),
    });
  }
  for (const backend of backends) {
    process.stderr.write(`\n${backend.name}: importing…\n`);
    const first = await importOnce(file, backend.env);
    process.stderr.write(`${first.summary}\n${backend.name}: the same file again…\n`);
    const again = await importOnce(file, backend.env);
    process.stderr.write(`${again.summary}\n`);
    const rehashed = await signInSample(backend.config, backend.name === 'PostgreSQL');
    const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en');
    /** The import's own time, from its summary ("… in 89.5 s (…)"). */
    const itself = (run: Run) => Number(/ in ([\d.]+) s /.exec(run.summary)?.[1] ?? Number.NaN);
    rows.push(
      `| ${backend.name} | ${USERS.toLocaleString('en')} | ${first.seconds.toFixed(1)} s | ${rate(USERS, first.seconds)} | ` +
        `${itself(first).toFixed(1)} s (${rate(USERS, itself(first))} users/s) | ` +
        `${again.seconds.toFixed(1)} s / ${itself(again).toFixed(1)} s | ${rehashed}/${SAMPLE} |`,
    );
  }
  process.stdout.write(
    [
      '| database | users | import (whole command) | users/s | the import as it reports itself | again, all skipped (whole / itself) | sample signed in, rehashed |',
      '| --- | --: | --: | --: | --: | --: | --: |',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
