import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildServer } from '../../src/app';
import { type Config, defineConfig } from '../../src/config';
import { MIGRATIONS_LOCK } from '../../src/db/database';
import { ARGON2_OPTIONS } from '../../src/domain/passwords/passwords';
import { RedisStore } from '../../src/store/redis-store';

/** argon2id at the production cost, for the tests about the hash (QUIET_RISK lowers it). */
export const PRODUCTION_PASSWORD_HASH = {
  passwordHashMemoryKiB: ARGON2_OPTIONS.memoryCost,
  passwordHashPasses: ARGON2_OPTIONS.timeCost,
};

/** Risk thresholds no other suite reaches. */
export const QUIET_RISK = {
  challengeAfterTargetFailures: 1_000_000,
  challengeAfterIpFailures: 1_000_000,
  challengeAfterDeviceFailures: 1_000_000,
  challengeAfterSendsPerIp: 1_000_000,
  challengeAfterSendsPerDevice: 1_000_000,
  challengeAfterSendsPerTarget: 1_000_000,
  challengeAfterLookupsPerIp: 1_000_000,
  challengeAfterLookupsPerDevice: 1_000_000,
  // The proof of work a hundredth of its price per attempt and at most 200 attempts (the tests solve
  // it in-process, many times per file), and the per-address puzzle caps out of reach;
  // test/challenge-pow.test.ts holds them to account.
  powCost: 50,
  powAttempts: 50,
  powPersonCap: 200,
  powBotAttempts: 400,
  puzzlesPerIp: 1_000_000,
  puzzlesPerDevice: 1_000_000,
  puzzlePoolSize: 1,
  // argon2id at 256 KiB and one pass, not OWASP's 19 MiB and two: every server start hashes a dummy
  // and most tests register people, so the production cost was a large share of the suite's CPU.
  // What holds the production cost: passwords.test.ts (the stored hash's parameters) and
  // enumeration.test.ts (answer times, where the verify is what evens the paths) run with the defaults.
  passwordHashMemoryKiB: 256,
  passwordHashPasses: 1,
  // Renders back to back, at normal priority: the suite's two workers keep both cores busy at normal
  // priority, where the production lane (a quarter share, nice 19) starved slide renders past a test's
  // 20 s on a loaded machine. test/challenge-render-process.test.ts and the bench hold those to account.
  renderShare: 1,
  renderNiceness: 0,
};

/**
 * The storage of the vitest project (vitest.config.ts, docs/testing.md): `services` is PostgreSQL and
 * Redis together, as a scaled-out deployment runs (either alone when only one of their URLs is set).
 */
export type Backend = 'sqlite' | 'postgres' | 'redis' | 'services';
export const backend = (process.env.PORTICO_TEST_BACKEND ?? 'sqlite') as Backend;
const onPostgres = backend === 'postgres' || (backend === 'services' && Boolean(process.env.DATABASE_URL));
const onRedis = backend === 'redis' || (backend === 'services' && Boolean(process.env.REDIS_URL));

/**
 * The PostgreSQL database of this test worker: DATABASE_URL's database with `_w<pool id>` appended,
 * created on first use. The suite runs two workers at once, and a schema that one worker's server
 * dropped on close made the other's catalog scan fail ("schema t_… does not exist": kysely's getTables,
 * in the migrator and in the inventory snapshots, looks every table up by name). Catalogs are per
 * database, so a database per worker keeps the two apart; each server still gets its own schema in it.
 */
let workerDatabase: Promise<string> | undefined;
export function postgresUrl(): Promise<string> {
  workerDatabase ??= (async () => {
    const shared = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const url = new URL(shared);
    const name = `${url.pathname.slice(1) || 'postgres'}_w${process.env.VITEST_POOL_ID ?? '1'}`;
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(`create database "${name}"`).catch((error: unknown) => {
        // 42P04: it exists (an earlier run); 23505: another worker created it in the same instant.
        const code = (error as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw error;
      });
      // A commit here need not wait for its WAL flush: nothing in the suite survives a crash of
      // PostgreSQL (faults/postgres.test.ts drops connections, it does not kill the server), and the
      // suite's thousands of small transactions each waited for an fsync. The server's own settings
      // are untouched: this is the worker database's default, for every connection to it.
      await client.query(`alter database "${name}" set synchronous_commit = off`);
    } finally {
      await client.end();
    }
    url.pathname = `/${name}`;
    return url.toString();
  })();
  return workerDatabase;
}

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  /** A fresh browser: its own cookie jar, sending the CSRF header the way the SDK does. */
  browser(): Browser;
  close(): Promise<void>;
}

/** Boots the real server on a temp SQLite file, or a fresh PostgreSQL schema, and/or with Redis. */
export async function startServer(
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-test-'));
  const run = randomBytes(6).toString('hex');
  const config = defineConfig({
    dataDir,
    logLevel: 'silent',
    publicOrigin: 'http://localhost:3000',
    // Off unless a test turns it on (test/second-verify.test.ts, test/sdk/second-verify.test.ts): the
    // harness browsers send no fingerprint, so every sign-in after the first would answer 2046.
    secondVerify: false,
    ...(onPostgres ? { databaseUrl: await postgresUrl(), databaseSchema: `t_${run}` } : {}),
    ...(onRedis ? { redisUrl: process.env.REDIS_URL, redisPrefix: `portico-test:${run}:` } : {}),
    ...overrides,
  });
  // The risk rules stay quiet unless a test asks for them (test/risk.test.ts lowers the thresholds):
  // other suites repeat failures and sends on purpose and must meet the rule they test, not a challenge.
  let app: FastifyInstance;
  try {
    // Every answer checked against its route's declared schema (src/http/response-check.ts).
    app = await buildServer(config, {
      validateResponses: true,
      ...options,
      limits: { ...QUIET_RISK, ...options.limits },
    });
  } catch (error) {
    // A start that fails on purpose (a dead Redis, a bad setting) must not leave its temp dir behind.
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    config,
    browser: () => new Browser(app),
    async close() {
      await app.close();
      if (config.databaseUrl && config.databaseSchema) {
        await dropSchema(config.databaseUrl, config.databaseSchema);
      }
      if (config.redisUrl) {
        const redis = new RedisStore(config.redisUrl, config.redisPrefix);
        await redis.connect();
        await redis.clear();
        await redis.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: LightMyRequestResponse['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field
  body: any;
  raw: LightMyRequestResponse;
}

/** A cookie jar over app.inject that behaves like the SDK in a browser. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** Headers added to every request (Origin, Sec-Fetch-Site, …). */
  headers: Record<string, string> = {};
  /** false: do not copy the CSRF cookie into the header. */
  sendCsrf = true;
  /** The client address; each browser gets its own, so per-IP caps never couple tests. */
  remoteAddress = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

  constructor(private readonly app: FastifyInstance) {}

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string | number>,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...this.headers, ...extraHeaders };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    const csrf = this.cookies.get('passport_csrf_token');
    if (method === 'POST' && this.sendCsrf && csrf && !('x-tt-passport-csrf-token' in headers)) {
      headers['x-tt-passport-csrf-token'] = csrf;
    }
    let payload: string | undefined;
    if (form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(
        Object.entries(form).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
    }
    const raw = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.remoteAddress,
      ...(payload === undefined ? {} : { payload }),
    });
    this.remember(raw);
    let body: unknown = raw.body;
    try {
      body = raw.json();
    } catch {}
    return { status: raw.statusCode, headers: raw.headers, body, raw };
  }

  /**
   * Another browser holding this one's cookies (the same client: its pre-session and session) on an
   * address of its own: parallel requests of one client, which a stranger's code is bound to.
   */
  twin(): Browser {
    const twin = new Browser(this.app);
    for (const [name, value] of this.cookies) twin.cookies.set(name, value);
    twin.headers = { ...this.headers };
    return twin;
  }

  get(url: string, headers?: Record<string, string>): Promise<Answer> {
    return this.request('GET', url, undefined, headers);
  }

  /** POSTs a form; fetches a CSRF cookie first when the jar has none, as a page load would. */
  async post(
    url: string,
    form: Record<string, string | number> = {},
    headers?: Record<string, string>,
  ): Promise<Answer> {
    if (!this.cookies.has('passport_csrf_token')) await this.get('/passport/web/account/info/');
    return this.request('POST', url, form, headers);
  }
}

/** The code in the newest message that carries one (never a notice's line: those carry no code). */
export function newestCode(messages: readonly { text: string }[]): string | undefined {
  for (const { text } of messages) {
    const code = text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
  }
  return undefined;
}

/**
 * The newest code the dev outbox holds for a recipient. A security notice may arrive after the code
 * (the sign-in notices come from the events dispatcher, a moment after the change): it is passed over.
 */
export async function codeFor(app: FastifyInstance, to: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  const code = newestCode(response.json().data.messages);
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

let counter = 0;
/** A fresh valid Chinese mobile number per call, so tests never share cooldowns. */
export function freshMobile(): string {
  counter += 1;
  return `+86138${String((process.pid * 1000 + counter) % 100_000_000).padStart(8, '0')}`;
}

export function freshEmail(): string {
  counter += 1;
  return `user${process.pid}x${counter}@example.com`;
}

/**
 * Drops a test's PostgreSQL schema. A server migrating meanwhile lists every schema's tables and then
 * reads each one's columns: a schema dropped in between fails that start ("schema … does not exist").
 * So the drop waits for the migrations lock those starts hold; ending the connection lets go of it.
 */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [MIGRATIONS_LOCK.toString()]);
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
