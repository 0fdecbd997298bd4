import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { type Browser, codeFor, freshMobile, startServer, type TestServer } from './support/server';

/**
 * SECURITY.md, one-time codes, "wrong guesses": one budget of five wrong guesses per target (channel +
 * normalised number or address) and code lane (the known device, or the client that asked) per ten
 * minutes, whatever code types the guesses name. sms_login
 * accepts three types (24, 7, 16): one live code of each used to buy five guesses each.
 */
let server: TestServer;
let clock = Date.now();
// A 200 ms cooldown, so three codes for one number can be live on every backend: the test clock moves
// the database store, real time moves Redis.
const passCooldown = async () => {
  clock += 61_000;
  await new Promise((resolve) => setTimeout(resolve, 220));
};
beforeAll(async () => {
  server = await startServer({}, { now: () => clock, limits: { sendCooldownMs: 200 } });
});
afterAll(async () => server?.close());

const SMS_LOGIN_TYPES = [CodeType.mobileLogin, CodeType.login, CodeType.mobileRegister];
const wrong = (code: string, by = 1) => String((Number(code) + by) % 1_000_000).padStart(6, '0');

/**
 * One live code of each type sms_login accepts, for one fresh number, asked for by one browser (a
 * stranger's code is guessed only by the client that asked for it).
 */
async function codesOfEveryType(): Promise<{ mobile: string; codes: Map<number, string>; browser: Browser }> {
  const mobile = freshMobile();
  const browser = server.browser();
  const codes = new Map<number, string>();
  for (const type of SMS_LOGIN_TYPES) {
    if (codes.size) await passCooldown();
    const sent = await browser.post(paths.web.sendCode, { mobile, type });
    expect(sent.body.message, `send type ${type}`).toBe('success');
    codes.set(type, await codeFor(server.app, mobile));
  }
  return { mobile, codes, browser };
}

describe('one guess budget per target', () => {
  it('judges five wrong guesses per number across every code type sms_login accepts, not five per type', async () => {
    const { mobile, codes, browser } = await codesOfEveryType();
    const answers: number[] = [];
    for (const [type, code] of codes) {
      for (let i = 0; i < 5; i++) {
        const guess = await browser.post(paths.web.smsLogin, { mobile, code: wrong(code, i + 1), type });
        answers.push(guess.body.data.error_code);
      }
    }
    expect(answers.filter((code) => code === ErrorCode.codeWrong)).toHaveLength(5);
    expect(answers.slice(5)).toEqual(Array(10).fill(ErrorCode.codeTooManyAttempts));
    // Even the right code of an untouched type is refused now, and so is a new code.
    const right = await browser.post(paths.web.smsLogin, {
      mobile,
      code: codes.get(CodeType.mobileRegister) ?? '',
      type: CodeType.mobileRegister,
    });
    expect(right.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
    await passCooldown();
    const resend = await browser.post(paths.web.sendCode, { mobile, type: CodeType.resetPassword });
    expect(resend.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
  });

  it('does not let parallel wrong guesses across code types race past the budget', async () => {
    const { mobile, codes, browser } = await codesOfEveryType();
    const browsers = Array.from({ length: 30 }, () => browser.twin());
    const types = [...codes.keys()];
    const guesses = await Promise.all(
      browsers.map((b, i) => {
        const type = types[i % types.length] as number;
        return b.post(paths.web.smsLogin, { mobile, code: wrong(codes.get(type) ?? '0', 1 + i), type });
      }),
    );
    const judged = guesses.filter((g) => g.body.data.error_code === ErrorCode.codeWrong);
    expect(judged).toHaveLength(5);
    expect(guesses.filter((g) => g.body.data.error_code === ErrorCode.codeTooManyAttempts)).toHaveLength(25);
  });

  it('shares the budget between endpoints: wrong sign-in guesses spend the check_code and reset guesses', async () => {
    const mobile = freshMobile();
    const browser = server.browser();
    await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    const login = await codeFor(server.app, mobile);
    for (let i = 0; i < 4; i++) await browser.post(paths.web.smsLogin, { mobile, code: wrong(login, i + 1) });
    await passCooldown();
    await browser.post(paths.web.sendCode, { mobile, type: CodeType.resetPassword });
    const reset = await codeFor(server.app, mobile);
    const check = await browser.post(paths.web.mobileCheckCode, {
      mobile,
      code: wrong(reset),
      type: CodeType.resetPassword,
    });
    expect(check.body.data.error_code).toBe(ErrorCode.codeWrong);
    const spent = await browser.post(paths.web.passwordReset, {
      mobile,
      code: reset,
      type: CodeType.resetPassword,
      password: 'a long and unusual passphrase 7',
    });
    expect(spent.body.data.error_code).toBe(ErrorCode.codeTooManyAttempts);
  });

  it('spends it on wrong guesses only: right codes and refused guesses give their charge back', async () => {
    const mobile = freshMobile();
    const browser = server.browser();
    await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    const first = await codeFor(server.app, mobile);
    for (let i = 0; i < 4; i++) {
      const guess = await browser.post(paths.web.smsLogin, { mobile, code: wrong(first, i + 1) });
      expect(guess.body.data.error_code).toBe(ErrorCode.codeWrong);
    }
    expect((await browser.post(paths.web.smsLogin, { mobile, code: first })).body.message).toBe('success');
    // The budget is the asking client's: the same browser (its pre-session) asks each time, as a
    // stranger still, so it forgets its session and the device token each sign-in gave it.
    const staysAStranger = () => {
      for (const name of [...browser.cookies.keys()])
        if (name !== 'passport_pre') browser.cookies.delete(name);
    };
    staysAStranger();
    // Three sign-ins with right codes later, one wrong guess is still left.
    for (let i = 0; i < 3; i++) {
      await passCooldown();
      await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
      const code = await codeFor(server.app, mobile);
      expect((await browser.post(paths.web.smsLogin, { mobile, code })).body.message).toBe('success');
      staysAStranger();
    }
    await passCooldown();
    const last = browser;
    await last.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    const code = await codeFor(server.app, mobile);
    expect((await last.post(paths.web.smsLogin, { mobile, code: wrong(code) })).body.data.error_code).toBe(
      ErrorCode.codeWrong,
    );
    expect((await last.post(paths.web.smsLogin, { mobile, code })).body.data.error_code).toBe(
      ErrorCode.codeTooManyAttempts,
    );
  });
});
