import { expect } from 'vitest';
import { weakness } from '../../src/domain/passwords/strength';
import { CodeType, ErrorCode, paths } from '../../src/protocol';
import { type Browser, codeFor, freshMobile, type TestServer } from './server';

/** A long passphrase that passes every rule for new passwords. */
export const GOOD_PASSWORD = 'correct horse battery staple';
export const OTHER_GOOD_PASSWORD = 'violet tugboat on a quiet river';

/**
 * Starts the password-strength estimator's worker before a file's first new password, so that a
 * file's first test does not also pay for loading the dictionaries. (An estimate's bound starts once
 * the worker has started, so a slow start is no longer a RATE_LIMITED answer; a failure here is one.)
 */
export async function warmPasswordEstimator(): Promise<void> {
  await weakness(GOOD_PASSWORD, []);
}

/**
 * A fixture's send, repeated while it meets the cooldown of its last one. The fixtures' servers set a
 * cooldown of a few milliseconds (`sendCooldownMs: 5`) so that a test may send to one number several
 * times; on a fast machine two sends can still fall inside it. The cooldown itself is asserted by the
 * tests about it, never through these fixtures.
 */
async function sendPastCooldown(send: () => Promise<Awaited<ReturnType<Browser['post']>>>) {
  for (let attempt = 1; ; attempt++) {
    const sent = await send();
    if (sent.body.data?.error_code !== ErrorCode.codeCooldown || attempt === 50) return sent;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Sends a code to a mobile number for a purpose and answers it as the outbox delivered it. */
export async function mobileCode(server: TestServer, browser: Browser, mobile: string, type: number) {
  const sent = await sendPastCooldown(() => browser.post(paths.web.sendCode, { mobile, type }));
  expect(sent.body.message, `fixture: send code type ${type}: ${JSON.stringify(sent.body.data)}`).toBe(
    'success',
  );
  return codeFor(server.app, mobile);
}

export async function emailCode(server: TestServer, browser: Browser, email: string, type: number) {
  const sent = await sendPastCooldown(() => browser.post(paths.web.emailSendCode, { email, type }));
  expect(sent.body.message, `fixture: send e-mail code type ${type}`).toBe('success');
  return codeFor(server.app, email);
}

/** A verify ticket for a mobile number and purpose, through send_code and mobile/check_code. */
export async function mobileTicket(server: TestServer, browser: Browser, mobile: string, type: number) {
  const code = await mobileCode(server, browser, mobile, type);
  const checked = await browser.post(paths.web.mobileCheckCode, { mobile, code, type });
  expect(checked.body.message, 'fixture: check code').toBe('success');
  return checked.body.data.verify_ticket as string;
}

export async function emailTicket(server: TestServer, browser: Browser, email: string, type: number) {
  const code = await emailCode(server, browser, email, type);
  const checked = await browser.post(paths.web.emailCheckCode, { email, code, type });
  expect(checked.body.message, 'fixture: check e-mail code').toBe('success');
  return checked.body.data.verify_ticket as string;
}

/** Signs a browser in by SMS code (creating the account); answers the number and the user id. */
export async function signInBySms(server: TestServer, browser: Browser, mobile = freshMobile()) {
  const code = await mobileCode(server, browser, mobile, CodeType.mobileLogin);
  const login = await browser.post(paths.web.smsLogin, { mobile, code });
  expect(login.body.message, 'fixture: SMS sign-in').toBe('success');
  return { mobile, userId: login.body.data.user_id as string };
}

export const sessionCount = async (server: TestServer, userId: string) =>
  (await server.app.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute())
    .length;

/** Whether a browser is signed in, by account/info. */
export async function isSignedIn(browser: Browser): Promise<boolean> {
  return (await browser.get(paths.web.accountInfo)).body.message === 'success';
}

/** Lets a send cooldown of a few milliseconds pass, on the database store and on Redis alike. */
export const passCooldown = () => new Promise((resolve) => setTimeout(resolve, 15));

/**
 * Sends requests all at once and counts how many passwords the server judged (argon2id verifies) while
 * they ran: the parallel-guess tests' measure of racing past a lock or a challenge. Answers the
 * requests' error codes, in order.
 */
export async function judgedWhile(
  server: TestServer,
  requests: readonly (() => Promise<{ body: { data: { error_code?: number } } }>)[],
): Promise<{ judged: number; codes: (number | undefined)[] }> {
  const { passwords } = server.app;
  const real = passwords.verify;
  let judged = 0;
  passwords.verify = (stored, password) => {
    judged += 1;
    return real(stored, password);
  };
  try {
    const answers = await Promise.all(requests.map((request) => request()));
    return { judged, codes: answers.map((answer) => answer.body.data.error_code) };
  } finally {
    passwords.verify = real;
  }
}

/** Waits for a condition; the deadline only catches a hang. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The notices (messages without a code: a new way in, a password changed) sent to `to`, newest first,
 * once the events so far are delivered.
 */
export async function noticesTo(server: TestServer, to: string): Promise<string[]> {
  await server.app.events.dispatcher.runOnce();
  const response = await server.app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  return (response.json().data.messages as { text: string }[])
    .map((message) => message.text)
    .filter((text) => !/\b\d{6}\b/.test(text));
}

/**
 * Answers a sign-in's second verification by an SMS code: the code sent for its `sms_code_key` to the
 * account's `mobile`, then login/continue. Resolves the continuation's answer.
 */
export async function continueBySms(server: TestServer, browser: Browser, key: string, mobile: string) {
  await passCooldown();
  await browser.post(paths.web.sendCode, { sms_code_key: key, type: CodeType.mobileLogin });
  return browser.post(paths.web.smsLoginContinue, {
    sms_code_key: key,
    code: await codeFor(server.app, mobile),
  });
}
