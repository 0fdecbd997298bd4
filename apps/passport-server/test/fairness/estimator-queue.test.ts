import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimatorUse } from '../../src/domain/passwords/strength';
import { ErrorCode, paths } from '../../src/protocol';
import { GOOD_PASSWORD, signInBySms, warmPasswordEstimator } from '../support/flows';
import { type Browser, freshMobile, startServer, type TestServer } from '../support/server';

/**
 * The password strength estimator is one worker thread shared by everybody: a queue that strangers can
 * fill refuses the owner's password. Its queue is fair instead: per client network (an IPv4 address,
 * an IPv6 /48) and per account, each with a few places of its own, served in turn; a check's cost is
 * bounded. Strangers who hammer it slow only themselves.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { limits: { sendCooldownMs: 5 } });
  await warmPasswordEstimator();
});
afterAll(async () => server?.close());

/** 32 characters the estimator found costly before its substitutions were capped. */
const COSTLY = '4@3!1|0$5+7(8[9{4@3!1|0$5+7(8[9{';

/** A browser at an address of its own. */
function browserAt(address: string): Browser {
  const browser = server.browser();
  browser.remoteAddress = address;
  return browser;
}

/** Fires `count` password resets (anybody may: the password is judged before the code) at once. */
function hammer(addresses: string[]) {
  return addresses.map((address) =>
    browserAt(address).post(paths.web.passwordReset, {
      mobile: freshMobile(),
      code: '123456',
      password: COSTLY,
    }),
  );
}

/** Waits until `count` more estimates have been admitted, or every request has answered. */
async function admitted(before: number, count: number, settled: () => boolean) {
  while (estimatorUse.calls - before < count && !settled()) await new Promise((r) => setTimeout(r, 5));
}

describe('a fair estimator queue', () => {
  it('sets the owner’s password while 80 requests from one IPv6 /48 wait for the estimator', async () => {
    const owner = browserAt('198.51.100.40');
    await signInBySms(server, owner);
    const before = estimatorUse.calls;
    let answered = 0;
    // 80 addresses, each in a /64 of its own, all in one /48.
    const attack = hammer(Array.from({ length: 80 }, (_, i) => `2001:db8:4800:${i.toString(16)}::1`)).map(
      (p) =>
        p.finally(() => {
          answered += 1;
        }),
    );
    await admitted(before, 8, () => answered === attack.length);
    const set = await owner.post(paths.web.passwordSet, { password: GOOD_PASSWORD });
    expect(set.body.message, JSON.stringify(set.body)).toBe('success');
    const answers = await Promise.all(attack);
    // The /48 met its own bound: most of its requests were refused at once, none was judged for long.
    const codes = answers.map((a) => a.body.data.error_code);
    expect(codes.filter((c) => c === ErrorCode.rateLimited).length).toBeGreaterThan(40);
    expect(
      codes.every(
        (c) =>
          c === ErrorCode.rateLimited ||
          c === ErrorCode.passwordTooWeak ||
          c === ErrorCode.codeExpired ||
          c === ErrorCode.codeWrong,
      ),
    ).toBe(true);
  });

  it('sets the owner’s password while 90 IPv4 addresses each keep a request waiting', async () => {
    const owner = browserAt('198.51.100.41');
    await signInBySms(server, owner);
    const before = estimatorUse.calls;
    let answered = 0;
    const attack = hammer(
      Array.from({ length: 90 }, (_, i) => `203.0.${113 + (i % 2)}.${10 + Math.floor(i / 2)}`),
    ).map((p) =>
      p.finally(() => {
        answered += 1;
      }),
    );
    await admitted(before, 66, () => answered === attack.length);
    const set = await owner.post(paths.web.passwordSet, { password: GOOD_PASSWORD });
    expect(set.body.message, JSON.stringify(set.body)).toBe('success');
    await Promise.all(attack);
    // A hang detector only: 90 estimates and resets on a loaded machine.
  }, 300_000);

  it('refuses one address past its own places, and serves the next address at once', async () => {
    const before = estimatorUse.calls;
    const answers = await Promise.all(hammer(Array(12).fill('192.0.2.77')));
    const limited = answers.filter((a) => a.body.data.error_code === ErrorCode.rateLimited).length;
    expect(limited).toBeGreaterThan(0);
    expect(estimatorUse.calls - before).toBe(12 - limited);
    const other = await browserAt('192.0.2.78').post(paths.web.passwordReset, {
      mobile: freshMobile(),
      code: '123456',
      password: COSTLY,
    });
    expect(other.body.data.error_code).not.toBe(ErrorCode.rateLimited);
  });
});
