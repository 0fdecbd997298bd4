import {
  accountInfo,
  bindMobile,
  emailCodeLogin,
  passwordLogin,
  resetPasswordByEmail,
  type StepUpRequest,
  sendEmailCode,
  sendMobileCode,
  setAccount,
  setPassword,
  stepUpPlugin,
  switchMember,
  verifyAccount,
  verifyAuth,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, type CodeTypeValue } from '../../src/protocol';
import { GOOD_PASSWORD, OTHER_GOOD_PASSWORD, passCooldown } from '../support/flows';
import { rejectsWith, type SdkBrowser, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshEmail, freshMobile } from '../support/server';

/**
 * Step-up (docs/identifiers.md, "Step-up"): what adds a way into an account needs its person to have
 * proven it is them within the window (limits.stepUpMaxAgeMs, 10 minutes), not only the session
 * cookie. The attacker's scenario end to end through the real SDK: a session stolen from an account
 * that signed up by e-mail.
 */

const WINDOW_MS = 10 * 60_000;
/** The server's clock: tests move it past the window. */
let skew = 0;
let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 }, now: () => Date.now() + skew });
});
afterAll(async () => server?.close());

const later = (ms: number) => {
  skew += ms;
};

async function emailCode(browser: SdkBrowser, email: string, type: CodeTypeValue) {
  await passCooldown();
  await sendEmailCode(browser.client(), { email, type });
  return server.codeFor(email);
}

async function mobileCode(browser: SdkBrowser, mobile: string, type: CodeTypeValue) {
  await passCooldown();
  await sendMobileCode(browser.client(), { mobile, type });
  return server.codeFor(mobile);
}

/** An account that signed up by e-mail code (no mobile, no password), signed in in a browser. */
async function emailAccount() {
  const owner = server.sdkBrowser();
  const email = freshEmail();
  const code = await emailCode(owner, email, CodeType.emailLogin);
  const account = await emailCodeLogin<{ user_id: string }>(owner.client(), {
    email,
    code,
    type: CodeType.emailLogin,
  });
  return { owner, email, userId: account.user_id };
}

/** Another browser holding a copy of `from`'s cookies: a stolen session. */
function thiefOf(from: SdkBrowser) {
  const thief = server.sdkBrowser();
  for (const [name, cookie] of from.cookies) thief.cookies.set(name, { ...cookie });
  return thief;
}

describe('a stolen session of an account that signed up by e-mail', () => {
  it('cannot bind a mobile past the window: STEP_UP_REQUIRED names the ways to prove it; after a re-verification the same code binds', async () => {
    const { owner, email, userId } = await emailAccount();
    const thief = thiefOf(owner);
    later(WINDOW_MS + 60_000);

    const mobile = freshMobile();
    const code = await mobileCode(thief, mobile, CodeType.bind);
    const refused = await rejectsWith(bindMobile(thief.client(), { mobile, code }), 'stepUpRequired');
    expect(refused.error_code).toBe(2047);
    expect(refused.data).toMatchObject({
      mobile: '',
      email: expect.stringMatching(/^u\*\*\*@example\.com$/),
      has_password: false,
      max_age: WINDOW_MS / 1000,
    });
    const account = await accountInfo<{ mobile: string }>(thief.client());
    expect(account.mobile).toBe('');

    // The person proves it is them with a code to the account's own e-mail (auth/verify)…
    const own = await emailCode(owner, email, CodeType.oldMobile);
    await verifyAuth(owner.client(), { email, code: own });
    later(WINDOW_MS / 2);
    // …and within the window the bind goes through, with the code the refusal left unspent.
    const bound = await bindMobile<{ user_id: string; mobile: string }>(owner.client(), { mobile, code });
    expect(bound.user_id).toBe(userId);
    expect(bound.mobile).toMatch(/^\+86\*+\d{4}$/);
  });

  it('a re-verification lasts the window only: past it, bind mobile, set password and set account are refused again', async () => {
    const { owner, email } = await emailAccount();
    later(WINDOW_MS + 60_000);
    const own = await emailCode(owner, email, CodeType.oldMobile);
    await verifyAuth(owner.client(), { email, code: own });
    later(WINDOW_MS + 1_000);

    const mobile = freshMobile();
    const code = await mobileCode(owner, mobile, CodeType.bind);
    await rejectsWith(bindMobile(owner.client(), { mobile, code }), 'stepUpRequired');
    await rejectsWith(setPassword(owner.client(), { password: GOOD_PASSWORD }), 'stepUpRequired');
    await rejectsWith(
      setAccount(owner.client(), { username: `u${Date.now().toString(36)}`, password: GOOD_PASSWORD }),
      'stepUpRequired',
    );
    const account = await accountInfo<{ mobile: string; username: string; has_password: boolean }>(
      owner.client(),
    );
    expect(account).toMatchObject({ mobile: '', username: '', has_password: false });
  });

  it('a sign-in counts as a verification; past the window the password proves it again (account/verify)', async () => {
    const { owner } = await emailAccount();
    later(60_000);
    await setPassword(owner.client(), { password: GOOD_PASSWORD });
    later(WINDOW_MS + 60_000);

    const mobile = freshMobile();
    const code = await mobileCode(owner, mobile, CodeType.bind);
    const refused = await rejectsWith(bindMobile(owner.client(), { mobile, code }), 'stepUpRequired');
    expect(refused.data).toMatchObject({ has_password: true });
    // A username beside a password asks for the current password: that is the verification itself.
    const username = `n${Date.now().toString(36)}`;
    await setAccount(owner.client(), { username, password: GOOD_PASSWORD });
    await verifyAccount(owner.client(), { password: GOOD_PASSWORD });
    const bound = await bindMobile<{ mobile: string; username: string }>(owner.client(), { mobile, code });
    expect(bound).toMatchObject({ username, mobile: expect.stringMatching(/^\+86\*+\d{4}$/) });
  });

  it('a switch of identity renews nothing: the new session keeps the old one’s verification time', async () => {
    const { owner } = await emailAccount();
    later(WINDOW_MS + 60_000);
    await switchMember(owner.client(), { to_sec_member_id: '0' });
    const mobile = freshMobile();
    const code = await mobileCode(owner, mobile, CodeType.bind);
    await rejectsWith(bindMobile(owner.client(), { mobile, code }), 'stepUpRequired');
  });

  it('the SDK’s stepUpPlugin asks for a proof, re-verifies by a code to the own e-mail and binds in the same call', async () => {
    const { owner, email, userId } = await emailAccount();
    later(WINDOW_MS + 60_000);
    const asked: StepUpRequest[] = [];
    const client = owner.client();
    client.use(
      stepUpPlugin({
        dialog: {
          async stepUp(request) {
            asked.push(request);
            await passCooldown();
            await request.sendCode({ email });
            return { email, code: await server.codeFor(email) };
          },
        },
      }),
    );
    const mobile = freshMobile();
    const code = await mobileCode(owner, mobile, CodeType.bind);
    const bound = await bindMobile<{ user_id: string }>(client, { mobile, code });
    expect(bound.user_id).toBe(userId);
    expect(asked).toEqual([
      expect.objectContaining({ mobileMasked: '', hasPassword: false, maxAge: WINDOW_MS / 1000 }),
    ]);
    expect(asked[0]?.emailMasked).toMatch(/^u\*\*\*@example\.com$/);
  });

  it('dies when the owner resets the password: the thief is signed out and the new password is the owner’s', async () => {
    const { owner, email, userId } = await emailAccount();
    const thief = thiefOf(owner);
    expect((await accountInfo<{ user_id: string }>(thief.client())).user_id).toBe(userId);

    const elsewhere = server.sdkBrowser();
    const reset = await emailCode(elsewhere, email, CodeType.resetPassword);
    await resetPasswordByEmail(elsewhere.client(), { email, code: reset, password: OTHER_GOOD_PASSWORD });

    await rejectsWith(accountInfo(thief.client()), 'notLoggedIn');
    await rejectsWith(accountInfo(owner.client()), 'notLoggedIn');
    await rejectsWith(bindMobile(thief.client(), { mobile: freshMobile(), code: '123456' }), 'notLoggedIn');
    const back = await passwordLogin<{ user_id: string }>(elsewhere.client(), {
      email,
      password: OTHER_GOOD_PASSWORD,
    });
    expect(back.user_id).toBe(userId);
  });
});
