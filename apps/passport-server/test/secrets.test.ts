import crypto from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readPendingProfile, savePendingProfile } from '../src/domain/oauth/pending';
import { safeEqual, sha256 } from '../src/lib/crypto';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { codeFor, freshMobile, startServer, type TestServer } from './support/server';

/**
 * Where the server's secrets come from and how they are compared, asserted on the running server (it
 * runs in this process: app.inject, no socket) with node:crypto watched. `vi.spyOn` replaces a function
 * on node:crypto's object; `syncBuiltinESMExports` carries it to the named imports `src/` uses (and
 * back after each test). Counted and compared, never timed.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());
afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

/** Watches a node:crypto function (calling through), as every module of the server sees it. */
function watch<K extends 'randomInt' | 'randomBytes' | 'timingSafeEqual'>(name: K) {
  const spy = vi.spyOn(crypto, name);
  syncBuiltinESMExports();
  return spy;
}

const CODE_RANGE = [0, 1_000_000];
const isCodeDraw = (args: unknown[]) => args[0] === CODE_RANGE[0] && args[1] === CODE_RANGE[1];

async function sendCode(mobile = freshMobile()) {
  const browser = server.browser();
  const sent = await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
  expect(sent.body.message, 'send_code').toBe('success');
  return { browser, mobile, code: await codeFor(server.app, mobile) };
}

describe('the random source', () => {
  it('draws every code from crypto.randomInt over 000000–999999, and a constant Math.random changes nothing', async () => {
    const mathRandom = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const randomInt = watch('randomInt');
    const codes = (await Promise.all(Array.from({ length: 40 }, () => sendCode()))).map(({ code }) => code);
    // Nothing on the way from send_code to the outbox asked Math.random for anything.
    expect(mathRandom).not.toHaveBeenCalled();

    // Each delivered code is the number crypto.randomInt drew over the whole six-digit range, padded.
    const draws = randomInt.mock.calls
      .map((args, i) => ({ args, result: randomInt.mock.results[i]?.value as number }))
      .filter(({ args }) => isCodeDraw(args));
    expect(draws.map(({ result }) => String(result).padStart(6, '0')).sort()).toEqual([...codes].sort());
    for (const code of codes) expect(code).toMatch(/^[0-9]{6}$/);
    // With Math.random stuck at 0.5 the codes still differ: one pair alike is allowed (40 draws out of a
    // million make one about once in 1,300 runs); two, the failure, come once in millions of runs.
    expect(new Set(codes).size).toBeGreaterThanOrEqual(codes.length - 1);
  });

  it('sends whatever crypto.randomInt draws: a draw of 42 is the code 000042, and it signs in', async () => {
    const real = crypto.randomInt;
    vi.spyOn(crypto, 'randomInt').mockImplementation(((min: number, max: number) =>
      isCodeDraw([min, max]) ? 42 : real(min, max)) as typeof crypto.randomInt);
    syncBuiltinESMExports();
    const { browser, mobile, code } = await sendCode();
    vi.restoreAllMocks();
    syncBuiltinESMExports();
    expect(code).toBe('000042');
    const login = await browser.post(paths.web.smsLogin, { mobile, code: '000042' });
    expect(login.body.message).toBe('success');
  });

  it('mints every session token from 32 bytes of crypto.randomBytes, and a constant Math.random changes nothing', async () => {
    const mathRandom = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const randomBytes = watch('randomBytes');
    const tokens = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const { browser, mobile, code } = await sendCode();
        const login = await browser.post(paths.web.smsLogin, { mobile, code });
        expect(login.body.message, 'sms_login').toBe('success');
        return browser.cookies.get('sessionid') ?? '';
      }),
    );
    expect(mathRandom).not.toHaveBeenCalled();
    const drawn = new Set<string>();
    randomBytes.mock.calls.forEach((args, i) => {
      const result = randomBytes.mock.results[i];
      if (args[0] === 32 && result?.type === 'return')
        drawn.add((result.value as unknown as Buffer).toString('base64url'));
    });
    // Each token is, byte for byte, 32 bytes crypto.randomBytes answered: 256 bits, nothing added.
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(drawn.has(token)).toBe(true);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(30);
    // And they look like it: every byte position varies across the 30 tokens, and about half of the
    // 7,680 bits are ones (within six standard deviations, 44 bits each: a miss is one run in 10^8).
    const bytes = tokens.map((token) => Buffer.from(token, 'base64url'));
    for (let position = 0; position < 32; position++) {
      expect(new Set(bytes.map((b) => b[position])).size, `byte ${position}`).toBeGreaterThan(1);
    }
    let ones = 0;
    for (const b of bytes) for (const byte of b) for (let bit = 0; bit < 8; bit++) ones += (byte >> bit) & 1;
    expect(Math.abs(ones - 3840)).toBeLessThan(6 * Math.sqrt(7680 / 4));
  });

  it('calls Math.random nowhere in the server’s source', () => {
    const root = join(import.meta.dirname, '..', 'src');
    const callers = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|js|mjs)$/.test(file))
      .filter((file) => readFileSync(join(root, file), 'utf8').includes('Math.random'));
    expect(callers).toEqual([]);
  });
});

describe('constant-time comparison', () => {
  /** The arguments of each timingSafeEqual call made while `run` runs. */
  async function comparisons(run: () => unknown): Promise<[Buffer, Buffer][]> {
    const timingSafeEqual = watch('timingSafeEqual');
    await run();
    const calls = timingSafeEqual.mock.calls.map(([a, b]) => [
      Buffer.from(a as Buffer),
      Buffer.from(b as Buffer),
    ]);
    vi.restoreAllMocks();
    syncBuiltinESMExports();
    return calls as [Buffer, Buffer][];
  }

  const HASH = sha256('a secret');
  it.each([
    ['equal hashes', HASH, HASH],
    [
      'hashes that differ in the last character',
      HASH,
      `${HASH.slice(0, -1)}${HASH.endsWith('0') ? '1' : '0'}`,
    ],
    ['a shorter input', HASH.slice(0, 10), HASH],
    ['a longer input', `${HASH}00`, HASH],
    ['an empty input', '', HASH],
    ['input that is not hex', 'ZZZZ not hex at all ✓', HASH],
    ['as many characters but more bytes', 'é'.repeat(64), HASH],
    ['equal non-hex text', 'Grüße, 東京 🙂', 'Grüße, 東京 🙂'],
  ])('safeEqual goes through crypto.timingSafeEqual with inputs of one length: %s', async (_name, a, b) => {
    let answer: boolean | undefined;
    const calls = await comparisons(() => {
      answer = safeEqual(a, b);
    });
    expect(answer).toBe(a === b);
    expect(calls).toHaveLength(1);
    const [left, right] = calls[0]!;
    expect(left.length).toBe(right.length);
    // Unequal lengths compare the given input with itself: the time follows its length, never the secret.
    if (Buffer.byteLength(a) !== Buffer.byteLength(b)) expect(left.equals(Buffer.from(a))).toBe(true);
  });

  it('compares a code guess with the stored keyed hash through timingSafeEqual, wrong or right', async () => {
    const { browser, mobile, code } = await sendCode();
    const row = await server.app.db
      .selectFrom('one_time_codes')
      .select('code_hash')
      .where('target', '=', mobile)
      .executeTakeFirstOrThrow();
    const stored = Buffer.from(row.code_hash);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (const [guess, outcome] of [
      [wrong, ErrorCode.codeWrong],
      [code, undefined],
    ] as const) {
      let answer: { message: string; data: { error_code?: number } } | undefined;
      const calls = await comparisons(async () => {
        answer = (await browser.post(paths.web.smsLogin, { mobile, code: guess })).body;
      });
      expect(answer?.data.error_code, guess).toBe(outcome);
      const onTheHash = calls.filter(([a, b]) => a.equals(stored) || b.equals(stored));
      expect(
        onTheHash,
        `the stored hash compared for ${guess === code ? 'the right' : 'a wrong'} code`,
      ).toHaveLength(1);
      expect(onTheHash[0]?.[0].length).toBe(onTheHash[0]?.[1].length);
    }
  });

  it('compares the CSRF header with the expected token through timingSafeEqual, whatever its length', async () => {
    const browser = server.browser();
    await browser.get(paths.web.accountInfo);
    for (const header of [
      'x',
      `${browser.cookies.get('passport_csrf_token')}x`,
      'not-the-token-but-43-characters-long-000000',
    ]) {
      let status = 0;
      const calls = await comparisons(async () => {
        status = (
          await browser.post(
            paths.web.sendCode,
            { mobile: freshMobile(), type: 24 },
            {
              'x-tt-passport-csrf-token': header,
            },
          )
        ).status;
      });
      expect(status, header).toBe(403);
      const ofHeader = calls.filter(([a]) => a.equals(Buffer.from(header)));
      expect(ofHeader, header).toHaveLength(1);
      expect(ofHeader[0]?.[0].length).toBe(ofHeader[0]?.[1].length);
    }
  });

  it('binds a pending third-party profile to its browser through timingSafeEqual', async () => {
    const app = server.app;
    const cookie = app.config.publicOrigin.startsWith('https:') ? '__Host-passport_oauth' : 'passport_oauth';
    const requestOf = (browser: string) => ({ cookies: { [cookie]: browser } }) as unknown as FastifyRequest;
    const owner = crypto.randomBytes(32).toString('base64url');
    const reply = { setCookie: () => reply } as unknown as FastifyReply;
    const key = await savePendingProfile(app, requestOf(owner), reply, {
      provider: 'github',
      subject: 'secrets-test',
      email: null,
      emailVerified: false,
      name: 'Test',
      avatarUrl: null,
    });
    const binding = Buffer.from(sha256(owner));

    const ownCalls = await comparisons(() => readPendingProfile(app, requestOf(owner), key));
    expect(ownCalls.filter(([a, b]) => a.equals(binding) || b.equals(binding))).toHaveLength(1);

    const other = crypto.randomBytes(32).toString('base64url');
    let refused: unknown;
    const otherCalls = await comparisons(() =>
      readPendingProfile(app, requestOf(other), key).catch((error: unknown) => {
        refused = error;
      }),
    );
    expect(refused).toMatchObject({ errorName: 'oauthStateMismatch' });
    expect(otherCalls.filter(([a, b]) => a.equals(binding) || b.equals(binding))).toHaveLength(1);
  });
});
