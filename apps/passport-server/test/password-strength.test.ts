import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_PASSWORD_SCORE } from '../src/domain/passwords/strength';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { emailTicket, GOOD_PASSWORD, OTHER_GOOD_PASSWORD, signInBySms } from './support/flows';
import { freshEmail, startServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

/** Issue 9, finding 6: each was accepted as a new password before the strength estimator. */
const WEAK: [password: string, warning: string | null][] = [
  ['P@ssw0rd!', 'similarToCommon'],
  ['Passw0rd!', 'similarToCommon'],
  ['Qwerty123!', 'similarToCommon'],
  ['Summer2024', null],
  ['Password!', 'similarToCommon'],
  ['aaaaaaaa', 'simpleRepeat'],
  ['abcdefgh', 'sequences'],
];

/** Every new password the suites and the e2e tests use, and passphrases a person would pick. */
const GOOD = [
  GOOD_PASSWORD,
  OTHER_GOOD_PASSWORD,
  'Lantern-Maple-42',
  'Harbor-Quartz-58',
  'a long enough passphrase 7',
  'a long passphrase',
  'new passphrase',
  'a different passphrase entirely',
  'a sentence of more than sixty-four characters is welcome here, no rules',
  '我的密码是一句很长的中文句子',
];

/** A stable key: letters and digits only, never an English sentence. */
const KEY = /^[a-zA-Z0-9]+$/;

describe('password strength (zxcvbn-ts, minimum score 3)', () => {
  it('refuses every weak password of the review with PASSWORD_TOO_WEAK and the feedback as keys', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const ticket = await emailTicket(server, browser, email, CodeType.register);
    for (const [password, warning] of WEAK) {
      const answer = await browser.post(paths.web.emailRegisterV2, {
        email,
        verify_ticket: ticket,
        password,
      });
      expect(answer.status, password).toBe(200);
      const data = answer.body.data;
      expect(data.error_code, password).toBe(ErrorCode.passwordTooWeak);
      expect(data.password_score, password).toBeLessThan(MIN_PASSWORD_SCORE);
      expect(data.password_min_score).toBe(MIN_PASSWORD_SCORE);
      expect(data.password_feedback.warning, password).toBe(warning);
      expect(data.password_feedback.suggestions.length, password).toBeGreaterThan(0);
      for (const key of data.password_feedback.suggestions) expect(key, password).toMatch(KEY);
    }
    // Refusals keep the ticket: the person picks a better password and goes on.
    const ok = await browser.post(paths.web.emailRegisterV2, {
      email,
      verify_ticket: ticket,
      password: GOOD_PASSWORD,
    });
    expect(ok.body.message).toBe('success');
  });

  it('accepts long passphrases and every password the test suites register with', async () => {
    for (const password of GOOD) {
      const browser = server.browser();
      const email = freshEmail();
      const ticket = await emailTicket(server, browser, email, CodeType.register);
      const answer = await browser.post(paths.web.emailRegisterV2, {
        email,
        verify_ticket: ticket,
        password,
      });
      expect(answer.body.message, `${password}: ${JSON.stringify(answer.body.data)}`).toBe('success');
    }
  });

  it('holds for a signed-in first password too (one policy for every flow)', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    const weak = await browser.post(paths.web.passwordSet, { password: 'Summer2024' });
    expect(weak.body.data.error_code).toBe(ErrorCode.passwordTooWeak);
    const good = await browser.post(paths.web.passwordSet, { password: OTHER_GOOD_PASSWORD });
    expect(good.body.message).toBe('success');
  });

  it('refuses the blocklist and context words first, with their own reasons', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const ticket = await emailTicket(server, browser, email, CodeType.register);
    const common = await browser.post(paths.web.emailRegisterV2, {
      email,
      verify_ticket: ticket,
      password: 'password123',
    });
    expect(common.body.data.error_code).toBe(ErrorCode.passwordTooCommon);
    expect(common.body.data.password_feedback).toBeUndefined();
  });
});
