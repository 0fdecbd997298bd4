import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTER_CONFIRM_PATH } from '../src/flows/register-link';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { decisionOf, solve } from './support/challenge';
import {
  emailCode,
  emailTicket,
  GOOD_PASSWORD,
  isSignedIn,
  mobileTicket,
  passCooldown,
  sessionCount,
  signInBySms,
} from './support/flows';
import { freshEmail, freshMobile, startServer, type TestServer } from './support/server';

const FP = 'verify_register_fp';

let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { allowedOrigins: ['https://app.example.com'] },
    { limits: { sendCooldownMs: 5 } },
  );
});
afterAll(async () => server?.close());

const accountOf = (email: string) =>
  server.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();

async function outboxFor(to: string): Promise<{ text: string }[]> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  return response.json().data.messages;
}

/** The token of the newest registration link the dev outbox holds for an address. */
async function linkTokenFor(email: string): Promise<string> {
  const [mail] = await outboxFor(email);
  const token = mail?.text.match(/email\/register\/confirm\/\?token=([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error(`no registration link for ${email}`);
  return token;
}

describe('registration', () => {
  it('registers a mobile number with a ticket and a password, signs in, and the password works', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const ticket = await mobileTicket(server, browser, mobile, CodeType.register);
    const answer = await browser.post(paths.passport.mobileRegister, {
      mobile,
      verify_ticket: ticket,
      password: GOOD_PASSWORD,
    });
    expect(answer.body).toMatchObject({ message: 'success', data: { new_user: true, has_password: true } });
    expect(await isSignedIn(browser)).toBe(true);
    const login = await server.browser().post(paths.web.userLogin, { mobile, password: GOOD_PASSWORD });
    expect(login.body.data.user_id).toBe(answer.body.data.user_id);
  });

  it('rotates the session: a browser signed in as someone else gets a new token and the old one dies', async () => {
    const browser = server.browser();
    const { userId: before } = await signInBySms(server, browser);
    const oldToken = browser.cookies.get('sessionid');
    const mobile = freshMobile();
    const ticket = await mobileTicket(server, browser, mobile, CodeType.mobileRegister);
    const answer = await browser.post(paths.passport.mobileRegister, { mobile, verify_ticket: ticket });
    expect(answer.body.message).toBe('success');
    expect(browser.cookies.get('sessionid')).not.toBe(oldToken);
    expect(await sessionCount(server, before)).toBe(0);
    expect(answer.body.data.has_password).toBe(false);
  });

  it('answers ACCOUNT_EXISTS for a second registration, only with a valid ticket for that identifier', async () => {
    const mobile = freshMobile();
    const first = await mobileTicket(server, server.browser(), mobile, CodeType.register);
    await server.browser().post(paths.passport.mobileRegister, { mobile, verify_ticket: first });

    // Without proof of owning the number nobody learns that it has an account.
    const guess = await server.browser().post(paths.passport.mobileRegister, {
      mobile,
      verify_ticket: 'A'.repeat(43),
    });
    expect(guess.body.data.error_code).toBe(ErrorCode.ticketInvalid);
    const strangersTicket = await mobileTicket(server, server.browser(), freshMobile(), CodeType.register);
    const borrowed = await server.browser().post(paths.passport.mobileRegister, {
      mobile,
      verify_ticket: strangersTicket,
    });
    expect(borrowed.body.data.error_code).toBe(ErrorCode.ticketInvalid);

    await passCooldown();
    const second = await mobileTicket(server, server.browser(), mobile, CodeType.register);
    const twice = await server
      .browser()
      .post(paths.passport.mobileRegister, { mobile, verify_ticket: second });
    expect(twice.body.data.error_code).toBe(ErrorCode.accountExists);
    const users = await server.app.db.selectFrom('users').select('id').where('mobile', '=', mobile).execute();
    expect(users).toHaveLength(1);
  });

  it('refuses a common, a short or a context password with its reason, and keeps the ticket', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const ticket = await emailTicket(server, browser, email, CodeType.register);
    const cases: [string, number][] = [
      ['password1', ErrorCode.passwordTooCommon],
      ['iloveyou2', ErrorCode.passwordTooCommon],
      ['Qwertyuiop', ErrorCode.passwordTooCommon],
      ['short', ErrorCode.passwordTooShort],
      ['ｓｈｏｒｔ１２', ErrorCode.passwordTooShort],
      [`my ${email.split('@')[0]} secret`, ErrorCode.passwordContainsContext],
      ['portico rocks forever', ErrorCode.passwordContainsContext],
    ];
    for (const [password, code] of cases) {
      const answer = await browser.post(paths.web.emailRegisterV2, {
        email,
        verify_ticket: ticket,
        password,
      });
      expect(answer.body.data.error_code, password).toBe(code);
    }
    const tooLong = await browser.post(paths.web.emailRegisterV2, {
      email,
      verify_ticket: ticket,
      password: 'é'.repeat(600),
    });
    expect(tooLong.status).toBe(400);
    const longButFine = 'a sentence of more than sixty-four characters is welcome here, no rules';
    const ok = await browser.post(paths.web.emailRegisterV2, {
      email,
      verify_ticket: ticket,
      password: longButFine,
    });
    expect(ok.body.message).toBe('success');
    expect(
      (await server.browser().post(paths.web.userLogin, { email, password: longButFine })).body.message,
    ).toBe('success');
  });

  it('registers an e-mail through email/register_verify then email/register/v2', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const code = await emailCode(server, browser, email, CodeType.register);
    const verified = await browser.post(paths.web.emailRegisterVerify, { email, code });
    expect(verified.body.message).toBe('success');
    const answer = await browser.post(paths.web.emailRegisterV2, {
      email: email.toUpperCase(),
      verify_ticket: verified.body.data.verify_ticket,
      password: GOOD_PASSWORD,
    });
    expect(answer.body).toMatchObject({ message: 'success', data: { new_user: true } });
  });

  it('refuses a login code at email/register_verify', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const code = await emailCode(server, browser, email, CodeType.emailLogin);
    const answer = await browser.post(paths.web.emailRegisterVerify, {
      email,
      code,
      type: CodeType.emailLogin,
    });
    expect(answer.body.data.error_code).toBe(ErrorCode.codeTypeInvalid);
  });

  it('takes a password on email/register and answers next_url only when it is allowed', async () => {
    for (const [next, expected] of [
      ['/welcome?x=1', '/welcome?x=1'],
      ['https://app.example.com/start', 'https://app.example.com/start'],
      ['https://evil.example.net/', '/'],
      ['//evil.example.net', '/'],
    ]) {
      const browser = server.browser();
      const email = freshEmail();
      const ticket = await emailTicket(server, browser, email, CodeType.register);
      const answer = await browser.post(paths.web.emailRegister, {
        email,
        verify_ticket: ticket,
        password: GOOD_PASSWORD,
        next_url: next as string,
      });
      expect(answer.body.data.next_url, next).toBe(expected);
    }
    const missing = await server.browser().post(paths.web.emailRegister, {
      email: freshEmail(),
      verify_ticket: 'A'.repeat(43),
    });
    expect(missing.status).toBe(400);
  });

  it('the no-verify variant: a challenge pass, then a link to the address makes the account and signs in', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const ask = (fields: Record<string, string> = {}) =>
      browser.post(`${paths.web.emailRegister}?fp=${FP}`, {
        email,
        password: GOOD_PASSWORD,
        next_url: '/welcome',
        ...fields,
      });
    // No human check, or a forged one: a challenge, and no mail.
    decisionOf(await ask());
    const conf = decisionOf(await ask({ recaptcha_token: 'a-forged-provider-token' }));
    expect(await outboxFor(email)).toHaveLength(0);
    // Our challenge's pass, resent the way the SDK's challenge flow resends.
    const sent = await ask({ challenge_pass: await solve(browser, conf.challenge_id, FP), isResend: '1' });
    expect(sent.body).toMatchObject({ message: 'success', data: { link_sent: true, expires_in: 600 } });
    expect(await accountOf(email)).toBeUndefined();
    const token = await linkTokenFor(email);

    // Another browser (someone who registered this address with their own password, the address's
    // owner pressing the button in their mail) is refused, and the link stays for the one that asked.
    const elsewhere = server.browser();
    await elsewhere.get(`${REGISTER_CONFIRM_PATH}?token=${token}`);
    const refused = await elsewhere.post(REGISTER_CONFIRM_PATH, { token });
    expect(refused.body.data.error_code).toBe(ErrorCode.ticketInvalid);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect(await accountOf(email)).toBeUndefined();

    // Opening the link (a mail scanner does) changes nothing; the page's button posts it on.
    const reader = browser;
    const page = await reader.get(`${REGISTER_CONFIRM_PATH}?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.raw.body).toContain('完成注册');
    expect(page.raw.body).toContain('Finish creating your account');
    expect(await accountOf(email)).toBeUndefined();
    const made = await reader.post(REGISTER_CONFIRM_PATH, { token });
    expect(made.body).toMatchObject({ message: 'success', data: { new_user: true, next_url: '/welcome' } });
    expect(await isSignedIn(reader)).toBe(true);
    const again = await reader.post(REGISTER_CONFIRM_PATH, { token });
    expect(again.body.data.error_code).toBe(ErrorCode.ticketInvalid);
    const login = await server.browser().post(paths.web.emailLogin, { email, password: GOOD_PASSWORD });
    expect(login.body.data.user_id).toBe(made.body.data.user_id);
  });

  it('the no-verify variant answers the same for a registered address; only its link tells ACCOUNT_EXISTS', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const ticket = await emailTicket(server, browser, email, CodeType.register);
    await browser.post(paths.web.emailRegisterV2, { email, verify_ticket: ticket, password: GOOD_PASSWORD });
    await passCooldown();
    const stranger = server.browser();
    const conf = decisionOf(
      await stranger.post(`${paths.web.emailRegister}?fp=${FP}`, { email, password: GOOD_PASSWORD }),
    );
    // The pass may come as recaptcha_token too.
    const sent = await stranger.post(`${paths.web.emailRegister}?fp=${FP}`, {
      email,
      password: 'another long passphrase 42',
      recaptcha_token: await solve(stranger, conf.challenge_id, FP),
    });
    expect(sent.body).toMatchObject({ message: 'success', data: { link_sent: true } });
    // The link works only in the browser that asked (here its asker reads the mailbox too).
    const token = await linkTokenFor(email);
    const elsewhere = await server.browser().post(REGISTER_CONFIRM_PATH, { token });
    expect(elsewhere.body.data.error_code).toBe(ErrorCode.ticketInvalid);
    const answer = await stranger.post(REGISTER_CONFIRM_PATH, { token });
    expect(answer.body.data.error_code).toBe(ErrorCode.accountExists);
    expect(await isSignedIn(stranger)).toBe(false);
    const bad = await server.browser().post(REGISTER_CONFIRM_PATH, { token: 'short' });
    expect(bad.status).toBe(400);
  });

  it('creates the account without signing in through the only-user variant', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const ticket = await emailTicket(server, browser, email, CodeType.register);
    const answer = await browser.post(paths.passport.mobileEmailRegister, {
      email,
      verify_ticket: ticket,
      password: GOOD_PASSWORD,
    });
    expect(answer.body).toEqual({
      message: 'success',
      data: { user_id: expect.any(String), new_user: true, signed_in: false },
    });
    expect(browser.cookies.has('sessionid')).toBe(false);
    expect(await isSignedIn(browser)).toBe(false);
    expect(await sessionCount(server, answer.body.data.user_id)).toBe(0);

    const mobile = freshMobile();
    const mobileTicketValue = await mobileTicket(server, browser, mobile, CodeType.register);
    const flagged = await browser.post(paths.passport.mobileRegister, {
      mobile,
      verify_ticket: mobileTicketValue,
      only_user: 1,
    });
    expect(flagged.body.data).toMatchObject({ new_user: true, signed_in: false });
    expect(await isSignedIn(browser)).toBe(false);
  });

  it('wants exactly one of mobile and e-mail in the only-user variant', async () => {
    const both = await server.browser().post(paths.passport.mobileEmailRegister, {
      mobile: freshMobile(),
      email: freshEmail(),
      verify_ticket: 'A'.repeat(43),
    });
    expect(both.body.data.error_code).toBe(ErrorCode.identifierRequired);
    const neither = await server.browser().post(paths.passport.mobileEmailRegister, { verify_ticket: 'x' });
    expect(neither.body.data.error_code).toBe(ErrorCode.identifierRequired);
  });

  it('registers and signs in with an e-mail code and a password in one step', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const code = await emailCode(server, browser, email, CodeType.register);
    const answer = await browser.post(paths.web.emailRegisterVerifyLogin, {
      email,
      code,
      password: GOOD_PASSWORD,
    });
    expect(answer.body).toMatchObject({ message: 'success', data: { new_user: true, has_password: true } });
    expect(await isSignedIn(browser)).toBe(true);

    // The address has an account now: its code signs it in and leaves the password as it was.
    await passCooldown();
    const again = server.browser();
    const second = await emailCode(server, again, email, CodeType.register);
    const existing = await again.post(paths.web.emailRegisterVerifyLogin, {
      email,
      code: second,
      password: 'a different passphrase entirely',
    });
    expect(existing.body.data).toMatchObject({ user_id: answer.body.data.user_id, new_user: false });
    expect(
      (await server.browser().post(paths.web.userLogin, { email, password: GOOD_PASSWORD })).body.message,
    ).toBe('success');
  });

  it('checks the password before it spends the code in email/register_verify_login', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const code = await emailCode(server, browser, email, CodeType.register);
    const weak = await browser.post(paths.web.emailRegisterVerifyLogin, {
      email,
      code,
      password: '12345678',
    });
    expect(weak.body.data.error_code).toBe(ErrorCode.passwordTooCommon);
    const strong = await browser.post(paths.web.emailRegisterVerifyLogin, {
      email,
      code,
      password: GOOD_PASSWORD,
    });
    expect(strong.body.message).toBe('success');
  });
});
