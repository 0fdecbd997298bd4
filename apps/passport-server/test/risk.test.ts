import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Limits } from '../src/limits';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { decisionOf, solve } from './support/challenge';
import { judgedWhile } from './support/flows';
import {
  type Browser,
  freshEmail,
  freshMobile,
  QUIET_RISK,
  startServer,
  type TestServer,
} from './support/server';

/**
 * Issue 4, item 2: the risk rules on the real sign-in and send-code routes. A request past a
 * threshold must pass a challenge; no spelling of the path and no alias of the address gets around it.
 */

const LOGIN = paths.web.userLogin;
const FP = 'verify_lx1portico_risk_fingerprint';

function withServer(limits: Partial<Limits>) {
  const ref: { server: TestServer } = {} as { server: TestServer };
  beforeAll(async () => {
    ref.server = await startServer({}, { limits: { ...QUIET_RISK, ...limits } });
  });
  afterAll(async () => ref.server?.close());
  return ref;
}

const wrongPassword = (
  browser: Browser,
  email: string,
  url: string = LOGIN,
  extra: Record<string, string> = {},
) => browser.post(url, { email, password: 'not-the-password-1', ...extra });

describe('failures per target', () => {
  const ref = withServer({ challengeAfterTargetFailures: 3 });

  it('demand a challenge after 3 wrong passwords for that account only, bound to the route', async () => {
    const browser = ref.server.browser();
    const email = freshEmail();
    for (let i = 0; i < 3; i++) {
      expect((await wrongPassword(browser, email)).body.data.error_code).toBe(ErrorCode.wrongCredentials);
    }
    const conf = decisionOf(await wrongPassword(browser, email));
    expect(conf.action).toBe('/passport/web/user/login');
    expect((await wrongPassword(browser, freshEmail())).body.data.error_code).toBe(
      ErrorCode.wrongCredentials,
    );
  });

  it('demand a challenge after 3 of 30 parallel wrong passwords', async () => {
    // Counted, not timed: how many guesses reach argon2id before the challenge stands in front of them.
    const email = freshEmail();
    const browsers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const browser = ref.server.browser();
        await browser.get(paths.web.accountInfo); // its CSRF cookie first, so the 30 sign-ins leave at once
        return browser;
      }),
    );
    const { judged, codes: answers } = await judgedWhile(
      ref.server,
      browsers.map((browser) => () => wrongPassword(browser, email)),
    );
    expect(judged).toBe(3);
    expect(answers.filter((code) => code === ErrorCode.wrongCredentials)).toHaveLength(3);
    expect(answers.filter((code) => code === ErrorCode.challengeRequired)).toHaveLength(27);
    // The 27 refused were never judged, so they are not failures: the account's count stays at 3.
    expect(await ref.server.app.store.count(`risk:fail:target:email:${email}`)).toBe(3);
  });

  it('let the resent sign-in with fp and the pass reach the password check exactly once', async () => {
    const browser = ref.server.browser();
    const email = freshEmail();
    for (let i = 0; i < 3; i++) await wrongPassword(browser, email);
    const conf = decisionOf(await wrongPassword(browser, email));
    const pass = await solve(browser, conf.challenge_id, FP);
    const resent = await wrongPassword(browser, email, `${LOGIN}?fp=${FP}`, {
      isResend: '1',
      challenge_pass: pass,
    });
    expect(resent.body.data.error_code).toBe(ErrorCode.wrongCredentials);
    const replay = await wrongPassword(browser, email, `${LOGIN}?fp=${FP}`, {
      isResend: '1',
      challenge_pass: pass,
    });
    expect(replay.body.data.error_code).toBe(ErrorCode.challengeRequired);
  });

  it('are not bypassed by //path, case, a missing slash, %2F or a doubled inner slash', async () => {
    const browser = ref.server.browser();
    const email = freshEmail();
    for (let i = 0; i < 3; i++) await wrongPassword(browser, email);
    const variants = [
      `/${LOGIN}`,
      LOGIN.replace(/\/$/, ''),
      LOGIN.toUpperCase(),
      LOGIN.replace('/passport/', '/passport%2F'),
      LOGIN.replace('/web/', '/web//'),
      LOGIN.replace('/user/', '/user%2F'),
      `${LOGIN}?aid=1`,
    ];
    const outcomes: Record<string, number> = {};
    for (const url of variants) {
      const response = await wrongPassword(browser, email, url);
      outcomes[url] = response.status === 404 ? 404 : response.body.data.error_code;
    }
    for (const [url, code] of Object.entries(outcomes)) {
      expect([ErrorCode.challengeRequired, 404], url).toContain(code);
    }
    expect(Object.values(outcomes)).toContain(ErrorCode.challengeRequired);
  });

  it('count code sign-in failures too', async () => {
    const browser = ref.server.browser();
    const mobile = freshMobile();
    for (let i = 0; i < 3; i++) {
      const wrong = await browser.post(paths.web.smsLogin, { mobile, code: '000000' });
      expect(wrong.body.data.error_code).not.toBe(ErrorCode.challengeRequired);
    }
    const demanded = await browser.post(paths.web.smsLogin, { mobile, code: '000000' });
    expect(decisionOf(demanded).action).toBe(paths.web.smsLogin.replace(/\/$/, ''));
  });
});

describe('failures per client address', () => {
  const ref = withServer({ challengeAfterIpFailures: 4 });

  it('key IPv6 by its /64 in every spelling, so rotating or aliasing the address does not help', async () => {
    const from = (address: string) => {
      const browser = ref.server.browser();
      browser.remoteAddress = address;
      return browser;
    };
    for (const address of ['2001:db8:7:1::1', '2001:db8:7:1::2', '2001:db8:7:1:aaaa::3', '2001:db8:7:1::4']) {
      expect((await wrongPassword(from(address), freshEmail())).body.data.error_code).toBe(
        ErrorCode.wrongCredentials,
      );
    }
    for (const alias of [
      '2001:db8:7:1:ffff:ffff:ffff:ffff',
      '2001:0DB8:0007:0001:0000:0000:0000:0009',
      '2001:db8:7:1:0:0:0:1',
    ]) {
      const response = await wrongPassword(from(alias), freshEmail());
      expect(response.body.data.error_code, alias).toBe(ErrorCode.challengeRequired);
    }
    // The neighbouring /64 is another client.
    const neighbour = await wrongPassword(from('2001:db8:7:2::1'), freshEmail());
    expect(neighbour.body.data.error_code).toBe(ErrorCode.wrongCredentials);
  });

  it('treat an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    const browser = ref.server.browser();
    browser.remoteAddress = '10.77.0.1';
    for (let i = 0; i < 4; i++) await wrongPassword(browser, freshEmail());
    const mapped = ref.server.browser();
    mapped.remoteAddress = '::ffff:10.77.0.1';
    expect((await wrongPassword(mapped, freshEmail())).body.data.error_code).toBe(
      ErrorCode.challengeRequired,
    );
  });
});

describe('failures per device', () => {
  const ref = withServer({ challengeAfterDeviceFailures: 2 });

  it('follow the fingerprint across addresses and accounts', async () => {
    const device = 'verify_device_under_attack';
    for (let i = 0; i < 2; i++) {
      await wrongPassword(ref.server.browser(), freshEmail(), `${LOGIN}?verifyFp=${device}`);
    }
    const next = await wrongPassword(ref.server.browser(), freshEmail(), LOGIN, { fp: device });
    expect(next.body.data.error_code).toBe(ErrorCode.challengeRequired);
  });
});

describe('bursts of code sends', () => {
  const ref = withServer({ challengeAfterSendsPerIp: 2 });

  it('demand a challenge past the burst; the pass sends exactly one more code and fits no other action', async () => {
    const browser = ref.server.browser();
    for (let i = 0; i < 2; i++) {
      const sent = await browser.post(paths.web.sendCode, {
        mobile: freshMobile(),
        type: CodeType.mobileLogin,
      });
      expect(sent.body.message).toBe('success');
    }
    const mobile = freshMobile();
    const conf = decisionOf(await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin }));
    expect(conf.action).toBe(paths.web.sendCode.replace(/\/$/, ''));
    const pass = await solve(browser, conf.challenge_id, FP);

    // The pass is for send_code: the e-mail route (another action) demands its own challenge.
    const email = await browser.post(paths.web.emailSendCode, {
      email: freshEmail(),
      type: CodeType.emailLogin,
      fp: FP,
      challenge_pass: pass,
    });
    expect(email.body.data.error_code).toBe(ErrorCode.challengeRequired);

    const resent = await browser.post(paths.web.sendCode, {
      mobile,
      type: CodeType.mobileLogin,
      fp: FP,
      isResend: 1,
      challenge_pass: pass,
    });
    expect(resent.body.message, JSON.stringify(resent.body)).toBe('success');
    const again = await browser.post(paths.web.sendCode, {
      mobile: freshMobile(),
      type: CodeType.mobileLogin,
      fp: FP,
      challenge_pass: pass,
    });
    expect(again.body.data.error_code).toBe(ErrorCode.challengeRequired);
  });
});

describe('the check-registered oracle', () => {
  const ref = withServer({ challengeAfterLookupsPerIp: 2 });

  it('demands a challenge past a few lookups, and a pass buys exactly one more', async () => {
    const browser = ref.server.browser();
    const check = (extra: Record<string, string> = {}) =>
      browser.post(paths.web.userCheckMobileRegistered, { mobile: freshMobile(), ...extra });
    for (let i = 0; i < 2; i++) expect((await check()).body.message).toBe('success');
    const conf = decisionOf(await check());
    expect(conf.action).toBe(paths.web.userCheckMobileRegistered.replace(/\/$/, ''));
    // The e-mail lookup shares the address's count.
    const email = await browser.post(paths.web.userCheckEmailRegistered, { email: freshEmail() });
    expect(email.body.data.error_code).toBe(ErrorCode.challengeRequired);
    const pass = await solve(browser, conf.challenge_id, FP);
    expect((await check({ fp: FP, challenge_pass: pass })).body.message).toBe('success');
    expect((await check({ fp: FP, challenge_pass: pass })).body.data.error_code).toBe(
      ErrorCode.challengeRequired,
    );
  });
});
