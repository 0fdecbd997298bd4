import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SmsMessage } from '../src/delivery/providers';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import {
  type Answer,
  backend,
  freshEmail,
  freshMobile,
  PRODUCTION_PASSWORD_HASH,
  startServer,
  type TestServer,
} from './support/server';

/**
 * No account enumeration (SECURITY.md): an unknown account answers like a known one, by body and by
 * time. Timing is compared by medians of interleaved attempts, each against its own target (so no
 * per-target counter or challenge kicks in), and the ratio must stay within [1/3, 3]: wide enough for
 * a loaded machine, while a path that skipped its argon2id verify (~15 ms) or its delivery would be
 * an order of magnitude faster (a missing dummy verify measured 0.19).
 */
const PASSWORD = 'a long enough passphrase 7';
const ROUNDS = 11;
/** A real SMS provider answers after a network round trip; skipping it would show. */
const PROVIDER_MS = 15;

let server: TestServer;
const sms: SmsMessage[] = [];
let hash: string;
beforeAll(async () => {
  if (backend === 'redis') return;
  server = await startServer(
    {},
    {
      // The verify's cost is what evens the paths out: the production one.
      limits: PRODUCTION_PASSWORD_HASH,
      sms: {
        name: 'slow',
        async send(message) {
          await new Promise((resolve) => setTimeout(resolve, PROVIDER_MS));
          sms.push(message);
        },
      },
    },
  );
  hash = await server.app.passwords.hash(PASSWORD);
});
afterAll(async () => server?.close());

async function seed(fields: { email?: string; mobile?: string }, withPassword = true): Promise<void> {
  const now = Date.now();
  await server.app.db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email: fields.email ?? null,
      mobile: fields.mobile ?? null,
      username: null,
      password_hash: withPassword ? hash : null,
      screen_name: 'seeded',
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** One POST from a fresh browser (its CSRF cookie fetched first, outside the measurement). */
async function timed(
  url: string,
  form: Record<string, string | number>,
): Promise<{ ms: number; answer: Answer }> {
  const browser = server.browser();
  await browser.get('/passport/web/account/info/');
  const started = performance.now();
  const answer = await browser.post(url, form);
  return { ms: performance.now() - started, answer };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Runs each kind of attempt ROUNDS times, interleaved; returns the answers and median times per kind. */
async function compare(kinds: Record<string, () => Promise<{ ms: number; answer: Answer }>>) {
  const times: Record<string, number[]> = {};
  const answers: Record<string, Answer[]> = {};
  // One warm-up round each: the first request through a route compiles its schema and plans its queries.
  for (const attempt of Object.values(kinds)) await attempt();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [kind, attempt] of Object.entries(kinds)) {
      const { ms, answer } = await attempt();
      times[kind] = [...(times[kind] ?? []), ms];
      answers[kind] = [...(answers[kind] ?? []), answer];
    }
  }
  const medians = Object.fromEntries(Object.entries(times).map(([kind, xs]) => [kind, median(xs)]));
  return { answers, medians };
}

const comparable = (medians: Record<string, number>, reference: string) =>
  Object.values(medians).every(
    (ms) => ms / (medians[reference] ?? 0) >= 1 / 3 && ms / (medians[reference] ?? 0) <= 3,
  );

/**
 * `compare`, measured again (three times at most) while the medians disagree: a machine loaded by other
 * work can stall one kind's requests for a whole run, where a real oracle (no dummy hash: about 1 ms
 * against an argon2id verify) disagrees in every run.
 */
async function compareSettled(
  kinds: Record<string, () => Promise<{ ms: number; answer: Answer }>>,
  reference: string,
) {
  let result = await compare(kinds);
  for (let run = 1; run < 3 && !comparable(result.medians, reference); run++) result = await compare(kinds);
  return result;
}

function expectComparable(medians: Record<string, number>, reference: string) {
  const base = medians[reference] ?? 0;
  for (const [kind, ms] of Object.entries(medians)) {
    const ratio = ms / base;
    expect(
      ratio,
      `${kind} ${ms.toFixed(1)} ms against ${reference} ${base.toFixed(1)} ms`,
    ).toBeGreaterThanOrEqual(1 / 3);
    expect(
      ratio,
      `${kind} ${ms.toFixed(1)} ms against ${reference} ${base.toFixed(1)} ms`,
    ).toBeLessThanOrEqual(3);
  }
}

// SQLite and PostgreSQL; the Redis project would only move the failure counters, which
// test/passwords.test.ts already covers there.
const suite = describe.skipIf(backend === 'redis');

suite('no account enumeration on password login', () => {
  it('answers a wrong password, an unknown account and an account without a password alike, in body and time', async () => {
    const { answers, medians } = await compareSettled(
      {
        async wrongPassword() {
          const email = freshEmail();
          await seed({ email });
          return timed(paths.web.userLogin, { email, password: 'not the password 1' });
        },
        unknownAccount: () =>
          timed(paths.web.userLogin, { email: freshEmail(), password: 'not the password 1' }),
        async noPasswordSet() {
          const mobile = freshMobile();
          await seed({ mobile }, false);
          return timed(paths.web.userLogin, { account: mobile, password: 'not the password 1' });
        },
        unknownUsername: () =>
          timed(paths.web.userLogin, {
            account: `nobody${randomUUID().slice(0, 8)}`,
            password: 'not the password 1',
          }),
      },
      'wrongPassword',
    );
    const reference = answers.wrongPassword?.[0];
    expect(reference?.body).toMatchObject({
      message: 'error',
      data: { error_code: ErrorCode.wrongCredentials },
    });
    for (const [kind, list] of Object.entries(answers)) {
      for (const answer of list) {
        expect(answer.status, kind).toBe(reference?.status);
        expect(answer.body, kind).toEqual(reference?.body);
        expect(answer.headers['set-cookie'] ?? [], kind).toEqual(reference?.headers['set-cookie'] ?? []);
      }
    }
    // Each path pays one argon2id verify; without the dummy hash the unknown ones would take ~1 ms.
    expectComparable(medians, 'wrongPassword');
  });
});

suite('no account enumeration on password reset', () => {
  it('sends a reset code to an unknown number as to a known one: same answer, same delivery, comparable time', async () => {
    const known: string[] = [];
    const unknown: string[] = [];
    const { answers, medians } = await compareSettled(
      {
        async known() {
          const mobile = freshMobile();
          await seed({ mobile });
          known.push(mobile);
          return timed(paths.web.sendCode, { mobile, type: CodeType.resetPassword });
        },
        async unknown() {
          const mobile = freshMobile();
          unknown.push(mobile);
          return timed(paths.web.sendCode, { mobile, type: CodeType.resetPassword });
        },
      },
      'known',
    );
    const shape = (answer: Answer) => ({ ...answer.body, data: { ...answer.body.data, mobile: 'masked' } });
    const reference = answers.known?.[0];
    expect(reference?.body.message).toBe('success');
    for (const [kind, list] of Object.entries(answers)) {
      for (const answer of list) {
        expect(answer.status, kind).toBe(200);
        expect(shape(answer), kind).toEqual(reference && shape(reference));
      }
    }
    const delivered = new Set(sms.map((m) => m.to));
    for (const to of [...known, ...unknown]) expect(delivered.has(to), to).toBe(true);
    expectComparable(medians, 'known');
  });

  it('answers a reset with a wrong code the same for an unknown number, an unknown e-mail and known ones', async () => {
    const mobile = freshMobile();
    const email = freshEmail();
    await seed({ mobile });
    await seed({ email });
    const password = 'a brand new passphrase 9';
    const attempts = [
      timed(paths.web.passwordReset, { mobile, code: '000000', password }),
      timed(paths.web.passwordReset, { mobile: freshMobile(), code: '000000', password }),
    ];
    const [knownMobile, unknownMobile] = await Promise.all(attempts);
    expect(unknownMobile?.answer.body).toEqual(knownMobile?.answer.body);
    expect(knownMobile?.answer.body.message).toBe('error');

    const [knownEmail, unknownEmail] = await Promise.all([
      timed(paths.web.emailPasswordReset, { email, code: '000000', password }),
      timed(paths.web.emailPasswordReset, { email: freshEmail(), code: '000000', password }),
    ]);
    expect(unknownEmail?.answer.body).toEqual(knownEmail?.answer.body);
    expect(knownEmail?.answer.body.message).toBe('error');
  });
});
