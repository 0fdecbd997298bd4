import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import {
  continueBySms,
  emailCode,
  GOOD_PASSWORD,
  isSignedIn,
  mobileCode,
  OTHER_GOOD_PASSWORD,
  passCooldown,
  signInBySms,
  until,
} from './support/flows';
import { type Browser, freshEmail, startServer, type TestServer } from './support/server';

/**
 * What a password reset or change does besides storing the password (SECURITY.md, docs/security.md):
 * every other session ends, the remembered devices are forgotten (the second verification is asked
 * again on them: a thief's remembered browser must not skip it with the new password), and the person
 * hears what changed on every verified channel, through the outbound gate, in a fixed template.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ secondVerify: true }, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

/** A browser on a device of its own: an `s_v_web_id` fingerprint as the SDK makes one. */
function device(): Browser {
  const browser = server.browser();
  browser.cookies.set('s_v_web_id', `verify_${Date.now().toString(36)}_${randomBytes(16).toString('hex')}`);
  return browser;
}

interface Message {
  to: string;
  text: string;
  created_at: number;
}

async function messagesTo(to: string): Promise<Message[]> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  return response.json().data.messages as Message[];
}

/** The newest message to a recipient that is not a code: the notice. */
const noticeTo = (to: string, after: number) =>
  until(
    async () =>
      (await messagesTo(to)).find((m) => m.created_at >= after && !/\b\d{6}\b/.test(m.text)) ?? null,
    (m) => m !== null,
    `a notice to ${to}`,
  );

/**
 * An account with a mobile, a verified e-mail and a password, created on its home device, and a laptop
 * it remembered after a second verification; both signed in.
 */
async function accountOnTwoRememberedDevices() {
  const home = device();
  const { mobile, userId } = await signInBySms(server, home);
  expect((await home.post(paths.web.passwordSet, { password: GOOD_PASSWORD })).body.message).toBe('success');
  const email = freshEmail();
  const bindCode = await emailCode(server, home, email, CodeType.bind);
  const bound = await home.post(paths.web.emailBind, { email, code: bindCode });
  expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');

  const laptop = device();
  const demanded = await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
  expect(demanded.body.data.error_code).toBe(ErrorCode.secondVerify);
  const done = await continueBySms(server, laptop, demanded.body.data.sms_code_key as string, mobile);
  expect(done.body.message, 'fixture: the laptop verified').toBe('success');
  // Remembered: it signs in again without a second verification.
  await laptop.post(paths.web.logout, {});
  expect((await laptop.post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD })).body.message).toBe(
    'success',
  );
  return { home, laptop, mobile, email, userId };
}

const passwordLogin = (browser: Browser, mobile: string, password: string) =>
  browser.post(paths.web.userLogin, { mobile, password });

describe('after a password reset or change', () => {
  it('a reset forgets the remembered devices: the laptop is asked the second verification again', async () => {
    const { home, laptop, mobile, email } = await accountOnTwoRememberedDevices();
    const before = server.app.runtime.now();
    await passCooldown();
    const stranger = device();
    const code = await mobileCode(server, stranger, mobile, CodeType.resetPassword);
    const reset = await stranger.post(paths.web.passwordReset, {
      mobile,
      code,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(reset.body.message, JSON.stringify(reset.body)).toBe('success');

    expect(await isSignedIn(home)).toBe(false);
    expect(await isSignedIn(laptop)).toBe(false);
    const again = await passwordLogin(laptop, mobile, OTHER_GOOD_PASSWORD);
    expect(again.body.data.error_code).toBe(ErrorCode.secondVerify);
    const atHome = await passwordLogin(home, mobile, OTHER_GOOD_PASSWORD);
    expect(atHome.body.data.error_code).toBe(ErrorCode.secondVerify);

    // Told on both verified channels, in the fixed wording, with no code and no link to act on.
    for (const to of [mobile, email]) {
      const notice = await noticeTo(to, before);
      expect(notice?.text).toMatch(/密码|password/i);
      expect(notice?.text).not.toMatch(/https?:\/\//);
    }
  });

  it('a change ends the other sessions, forgets the other devices, keeps this one, and tells the person', async () => {
    const { home, laptop, mobile, email } = await accountOnTwoRememberedDevices();
    const before = server.app.runtime.now();
    const changed = await home.post(paths.web.passwordUpdate, {
      current_password: GOOD_PASSWORD,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(changed.body.message, JSON.stringify(changed.body)).toBe('success');
    expect(await isSignedIn(home)).toBe(true);
    expect(await isSignedIn(laptop)).toBe(false);
    expect((await passwordLogin(laptop, mobile, OTHER_GOOD_PASSWORD)).body.data.error_code).toBe(
      ErrorCode.secondVerify,
    );
    // The device that changed it proved the current password: it stays remembered.
    await home.post(paths.web.logout, {});
    expect((await passwordLogin(home, mobile, OTHER_GOOD_PASSWORD)).body.message).toBe('success');
    for (const to of [mobile, email]) {
      const notice = await noticeTo(to, before);
      expect(notice?.text).toMatch(/密码|password/i);
    }
  });
});
