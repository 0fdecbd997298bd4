import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, paths } from '../../src/protocol';
import { emailCode, GOOD_PASSWORD, isSignedIn, passCooldown, warmPasswordEstimator } from '../support/flows';
import {
  type Browser,
  codeFor,
  freshEmail,
  freshMobile,
  startServer,
  type TestServer,
} from '../support/server';

/**
 * One address, many people: an office or a carrier NAT. Strangers behind it who fail passwords or send
 * codes lock and slow only themselves: the owner on a device the account remembers (its device token)
 * signs in and gets codes whatever they did, and the owner who has the password gets the second
 * verification's code. The locks and counts still hold for every stranger there.
 */

const NAT = '198.51.100.60';

/** A browser on an address and a device of its own. */
function browserOn(server: TestServer, address: string): Browser {
  const browser = server.browser();
  browser.remoteAddress = address;
  browser.cookies.set('s_v_web_id', `verify_${randomBytes(16).toString('hex')}`);
  return browser;
}

/** The owner's account, made by SMS on `home` behind the NAT (so `home` holds its device token). */
async function ownerBehindNat(server: TestServer) {
  const home = browserOn(server, NAT);
  const mobile = freshMobile();
  const sent = await home.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
  expect(sent.body.message, JSON.stringify(sent.body)).toBe('success');
  const login = await home.post(paths.web.smsLogin, { mobile, code: await codeFor(server.app, mobile) });
  expect(login.body.message, JSON.stringify(login.body)).toBe('success');
  const set = await home.post(paths.web.passwordSet, { password: GOOD_PASSWORD });
  expect(set.body.message, JSON.stringify(set.body)).toBe('success');
  await home.post(paths.web.logout, {});
  return { home, mobile };
}

const errorCodeOf = (answer: { body: { data: { error_code?: number } } }) => answer.body.data.error_code;

async function messagesTo(server: TestServer, to: string): Promise<number> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  return (response.json().data.messages as unknown[]).length;
}

// The estimator's worker started before the first password (a cold start on a loaded machine is RATE_LIMITED).
beforeAll(() => warmPasswordEstimator());

describe('wrong passwords from a shared address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ secondVerify: true }, { limits: { passwordFailuresPerIpPerHour: 20 } });
  });
  afterAll(async () => server?.close());

  it('12 wrong passwords from a NAT lock the strangers there, never the owner on a remembered device behind it', async () => {
    const { home, mobile } = await ownerBehindNat(server);
    for (let i = 0; i < 12; i++) {
      const miss = await browserOn(server, NAT).post(paths.web.userLogin, { mobile, password: `guess ${i}` });
      expect([ErrorCode.wrongCredentials, ErrorCode.temporarilyLocked]).toContain(errorCodeOf(miss));
    }
    // A stranger at the NAT with a wrong password is locked; even one with the right password only
    // reaches the second verification by the owner's mobile, which he cannot pass.
    const wrong = await browserOn(server, NAT).post(paths.web.userLogin, { mobile, password: 'guess 99' });
    expect(errorCodeOf(wrong)).toBe(ErrorCode.temporarilyLocked);
    const thief = browserOn(server, NAT);
    const stranger = await thief.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(stranger)).toBe(ErrorCode.secondVerify);
    expect(await isSignedIn(thief)).toBe(false);

    const signedIn = await home.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    expect(await isSignedIn(home)).toBe(true);
  });

  it('the address’s hourly failures refuse the strangers there, never the owner’s remembered device; which keeps a lock of its own', async () => {
    const { home, mobile } = await ownerBehindNat(server);
    // Strangers at the NAT spend its hourly failures on other accounts.
    for (let i = 0; i < 22; i++) {
      await browserOn(server, NAT).post(paths.web.userLogin, {
        mobile: freshMobile(),
        password: `guess ${i}`,
      });
    }
    const refused = await browserOn(server, NAT).post(paths.web.userLogin, {
      mobile,
      password: GOOD_PASSWORD,
    });
    expect(errorCodeOf(refused)).toBe(ErrorCode.rateLimited);

    const signedIn = await home.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    await home.post(paths.web.logout, {});

    // The remembered device is no free pass: its own wrong passwords lock it.
    const limit = server.app.runtime.limits.passwordFailuresPerAccount;
    for (let i = 0; i < limit; i++) {
      const miss = await home.post(paths.web.userLogin, { mobile, password: `mine ${i}` });
      expect(errorCodeOf(miss)).toBe(ErrorCode.wrongCredentials);
    }
    const locked = await home.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(locked)).toBe(ErrorCode.temporarilyLocked);
  });
});

describe('the owner on a new device behind an address that strangers locked', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ secondVerify: true }, { limits: { sendCooldownMs: 5 } });
  });
  afterAll(async () => server?.close());

  /** Twelve strangers' wrong passwords for the account from the NAT: the lock on the pair closes. */
  async function strangersLock(mobile: string) {
    const codes = new Set<number | undefined>();
    for (let i = 0; i < 12; i++) {
      const miss = await browserOn(server, NAT).post(paths.web.userLogin, { mobile, password: `guess ${i}` });
      codes.add(errorCodeOf(miss));
    }
    expect(codes).toContain(ErrorCode.temporarilyLocked);
  }

  it('with the right password is asked for the second verification by their own mobile, not 1106, and signs in with it', async () => {
    const { mobile } = await ownerBehindNat(server);
    await strangersLock(mobile);

    const laptop = browserOn(server, NAT);
    const asked = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(asked), JSON.stringify(asked.body)).toBe(ErrorCode.secondVerify);
    const key = asked.body.data.sms_code_key as string;
    await passCooldown();
    const sent = await laptop.post(paths.web.sendCode, { sms_code_key: key, type: CodeType.mobileLogin });
    expect(sent.body.message, JSON.stringify(sent.body)).toBe('success');
    const continued = await laptop.post(paths.web.smsLoginContinue, {
      sms_code_key: key,
      code: await codeFor(server.app, mobile),
    });
    expect(continued.body.message, JSON.stringify(continued.body)).toBe('success');
    expect(await isSignedIn(laptop)).toBe(true);
  });

  it('does not reopen guessing: wrong passwords there answer 1106, and past the locked lane’s budget even the right one does', async () => {
    const { mobile } = await ownerBehindNat(server);
    await strangersLock(mobile);
    const budget = server.app.runtime.limits.lockedLaneGuessesPerAccount;
    // Strangers at the NAT and elsewhere-locked addresses share one budget per account.
    for (let i = 0; i < budget; i++) {
      const miss = await browserOn(server, NAT).post(paths.web.userLogin, { mobile, password: `more ${i}` });
      expect(errorCodeOf(miss)).toBe(ErrorCode.temporarilyLocked);
    }
    const spent = await browserOn(server, NAT).post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(spent)).toBe(ErrorCode.temporarilyLocked);
    // An address whose own lock is open still gets its own guesses and the usual answers.
    const elsewhere = browserOn(server, '203.0.113.77');
    const asked = await elsewhere.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(asked)).toBe(ErrorCode.secondVerify);
  });

  it('an account with no channel of its own to verify by stays locked there (1106), and an unknown account answers the same', async () => {
    const home = browserOn(server, '198.51.100.61');
    const email = freshEmail();
    const code = await emailCode(server, home, email, CodeType.emailLogin);
    const login = await home.post(paths.web.emailCodeLogin, { email, code, type: CodeType.emailLogin });
    expect(login.body.message, JSON.stringify(login.body)).toBe('success');
    expect((await home.post(paths.web.passwordSet, { password: GOOD_PASSWORD })).body.message).toBe(
      'success',
    );
    for (const account of [email, freshEmail()]) {
      for (let i = 0; i < 11; i++)
        await browserOn(server, NAT).post(paths.web.userLogin, { email: account, password: `guess ${i}` });
      const right = await browserOn(server, NAT).post(paths.web.userLogin, {
        email: account,
        password: GOOD_PASSWORD,
      });
      expect(errorCodeOf(right)).toBe(ErrorCode.temporarilyLocked);
    }
  });
});

describe('code sends from a shared address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      { secondVerify: true },
      { limits: { sendCooldownMs: 5, sendPerIpPerHour: 6, sendPerTargetPerHour: 4 } },
    );
  });
  afterAll(async () => server?.close());

  it('strangers at a NAT who spend its sends and keep the number’s cooldown armed never stop the owner’s first send from a known device, nor the password holder’s', async () => {
    const { home, mobile } = await ownerBehindNat(server);
    const before = await messagesTo(server, mobile);
    let refusedByAddress = false;
    for (let i = 0; i < 16; i++) {
      await passCooldown();
      const sent = await browserOn(server, NAT).post(paths.web.sendCode, {
        mobile,
        type: CodeType.mobileLogin,
      });
      if (errorCodeOf(sent) === ErrorCode.rateLimited) refusedByAddress = true;
    }
    expect(refusedByAddress).toBe(true);
    // The strangers' sends reached the victim a bounded number of times.
    const limits = server.app.runtime.limits;
    expect((await messagesTo(server, mobile)) - before).toBeLessThanOrEqual(limits.sendPerTargetPerHour);

    // The owner's first send from the remembered device, behind the same NAT.
    const sent = await home.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    expect(sent.body.message, JSON.stringify(sent.body)).toBe('success');
    const login = await home.post(paths.web.smsLogin, { mobile, code: await codeFor(server.app, mobile) });
    expect(login.body.message, JSON.stringify(login.body)).toBe('success');

    // The owner on a new laptop at the NAT, with the password: the second verification's code goes out.
    const laptop = browserOn(server, NAT);
    const asked = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(asked)).toBe(ErrorCode.secondVerify);
    const key = asked.body.data.sms_code_key as string;
    await passCooldown();
    const keySent = await laptop.post(paths.web.sendCode, { sms_code_key: key, type: CodeType.mobileLogin });
    expect(keySent.body.message, JSON.stringify(keySent.body)).toBe('success');
    const continued = await laptop.post(paths.web.smsLoginContinue, {
      sms_code_key: key,
      code: await codeFor(server.app, mobile),
    });
    expect(continued.body.message, JSON.stringify(continued.body)).toBe('success');

    // A stranger at the NAT is still refused by the address's count.
    await passCooldown();
    const stranger = await browserOn(server, NAT).post(paths.web.sendCode, {
      mobile: freshMobile(),
      type: CodeType.mobileLogin,
    });
    expect(errorCodeOf(stranger)).toBe(ErrorCode.rateLimited);
  });
});

describe('a number’s cooldown armed by strangers', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The cooldown at its real length (a minute): nothing here waits it out.
    server = await startServer({ secondVerify: true });
  });
  afterAll(async () => server?.close());

  it('16 sends from fresh addresses never hold back the owner’s first send from a known device, nor the password holder’s on a new one', async () => {
    const { home, mobile } = await ownerBehindNat(server);
    const answers = new Set<number | undefined>();
    for (let i = 0; i < 16; i++) {
      const sent = await browserOn(server, `203.0.113.${100 + i}`).post(paths.web.sendCode, {
        mobile,
        type: CodeType.mobileLogin,
      });
      answers.add(sent.body.message === 'success' ? 0 : errorCodeOf(sent));
    }
    // The strangers armed the number's cooldown for each other.
    expect(answers).toContain(ErrorCode.codeCooldown);

    const sent = await home.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    expect(sent.body.message, JSON.stringify(sent.body)).toBe('success');
    const login = await home.post(paths.web.smsLogin, { mobile, code: await codeFor(server.app, mobile) });
    expect(login.body.message, JSON.stringify(login.body)).toBe('success');

    const laptop = browserOn(server, '198.51.100.90');
    const asked = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(errorCodeOf(asked)).toBe(ErrorCode.secondVerify);
    const key = asked.body.data.sms_code_key as string;
    const keySent = await laptop.post(paths.web.sendCode, { sms_code_key: key, type: CodeType.mobileLogin });
    expect(keySent.body.message, JSON.stringify(keySent.body)).toBe('success');
  });
});
