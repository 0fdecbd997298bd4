import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { GOOD_PASSWORD, mobileCode, mobileTicket, passCooldown, signInBySms } from './support/flows';
import { codeFor, freshEmail, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
let skew = 0;
beforeAll(async () => {
  server = await startServer({}, { now: () => Date.now() + skew, limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

const register = (ticket: string, mobile: string) => ({
  mobile,
  verify_ticket: ticket,
  password: GOOD_PASSWORD,
});

describe('verify tickets', () => {
  it('turns a checked SMS code into a 256-bit ticket that is stored only as a keyed hash', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const code = await mobileCode(server, browser, mobile, CodeType.register);
    const checked = await browser.post(paths.web.validateCode, { mobile, code, type: CodeType.register });
    expect(checked.body).toMatchObject({ message: 'success', data: { expires_in: 600 } });
    const { ticket, verify_ticket } = checked.body.data;
    expect(ticket).toBe(verify_ticket);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await server.app.db
      .selectFrom('verify_tickets')
      .selectAll()
      .where('target', '=', mobile)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: CodeType.register, channel: 'mobile', used_at: null });
    expect(JSON.stringify(rows)).not.toContain(ticket);
  });

  it('uses the code up: the same code does not give a second ticket', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const code = await mobileCode(server, browser, mobile, CodeType.register);
    const form = { mobile, code, type: CodeType.register };
    expect((await browser.post(paths.web.mobileCheckCode, form)).body.message).toBe('success');
    expect((await browser.post(paths.web.mobileCheckCode, form)).body.data.error_code).toBe(
      ErrorCode.codeExpired,
    );
  });

  it('gives no ticket for a wrong code, and counts the guess', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const code = await mobileCode(server, browser, mobile, CodeType.register);
    const wrong = String((Number(code) + 1) % 1e6).padStart(6, '0');
    const answer = await browser.post(paths.web.mobileCheckCode, {
      mobile,
      code: wrong,
      type: CodeType.register,
    });
    expect(answer.body.data.error_code).toBe(ErrorCode.codeWrong);
  });

  it('checks e-mail codes through email/check_code and email/verify', async () => {
    for (const url of [paths.web.emailCheckCode, paths.web.emailVerify]) {
      const browser = server.browser();
      const email = freshEmail();
      await browser.post(paths.web.emailSendCode, { email, type: CodeType.register });
      const code = await codeFor(server.app, email);
      const answer = await browser.post(url, { email, code, type: CodeType.register });
      expect(answer.body.message, url).toBe('success');
      expect(answer.body.data.verify_ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('refuses to check a code for an unknown purpose, or a signed-in purpose without a session', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const unknown = await browser.post(paths.web.mobileCheckCode, { mobile, code: '123456', type: 999 });
    expect(unknown.body.data.error_code).toBe(ErrorCode.codeTypeInvalid);
    const signedInOnly = await browser.post(paths.web.mobileCheckCode, {
      mobile,
      code: '123456',
      type: CodeType.changePassword,
    });
    expect(signedInOnly.body.data.error_code).toBe(ErrorCode.notLoggedIn);
  });

  it('is single use: a second registration with the same ticket is refused', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const ticket = await mobileTicket(server, browser, mobile, CodeType.register);
    expect((await browser.post(paths.passport.mobileRegister, register(ticket, mobile))).body.message).toBe(
      'success',
    );
    const again = await server.browser().post(paths.passport.mobileRegister, register(ticket, mobile));
    expect(again.body.data.error_code).toBe(ErrorCode.ticketInvalid);
  });

  it('is single use under concurrency: of 20 resets racing with one ticket, exactly one wins', async () => {
    const owner = server.browser();
    const { mobile, userId } = await signInBySms(server, owner);
    await passCooldown();
    const ticket = await mobileTicket(server, server.browser(), mobile, CodeType.resetPassword);
    const browsers = Array.from({ length: 20 }, () => server.browser());
    await Promise.all(browsers.map((b) => b.get(paths.web.accountInfo)));
    const answers = await Promise.all(
      browsers.map((b, i) =>
        b.post(paths.web.passwordResetByTicket, { ticket, password: `${GOOD_PASSWORD} ${i}` }),
      ),
    );
    const winners = answers.filter((a) => a.body.message === 'success');
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.body.data.error_code === ErrorCode.ticketInvalid)).toHaveLength(19);
    expect(winners[0]?.body.data.user_id).toBe(userId);
  });

  it('is single use under concurrency: 20 registrations with one ticket make one account', async () => {
    const mobile = freshMobile();
    const ticket = await mobileTicket(server, server.browser(), mobile, CodeType.register);
    const browsers = Array.from({ length: 20 }, () => server.browser());
    await Promise.all(browsers.map((b) => b.get(paths.web.accountInfo)));
    const answers = await Promise.all(
      browsers.map((b) => b.post(paths.passport.mobileRegister, register(ticket, mobile))),
    );
    expect(answers.filter((a) => a.body.message === 'success')).toHaveLength(1);
    const users = await server.app.db.selectFrom('users').select('id').where('mobile', '=', mobile).execute();
    expect(users).toHaveLength(1);
  });

  it('is bound to its purpose: a reset ticket does not register and a register ticket does not reset', async () => {
    const { mobile } = await signInBySms(server, server.browser());
    await passCooldown();
    const registerTicket = await mobileTicket(server, server.browser(), mobile, CodeType.register);
    const reset = await server
      .browser()
      .post(paths.web.passwordResetByTicket, { ticket: registerTicket, password: GOOD_PASSWORD });
    expect(reset.body.data.error_code).toBe(ErrorCode.ticketInvalid);

    const fresh = freshMobile();
    const resetTicket = await mobileTicket(server, server.browser(), fresh, CodeType.resetPassword);
    const registered = await server
      .browser()
      .post(paths.passport.mobileRegister, register(resetTicket, fresh));
    expect(registered.body.data.error_code).toBe(ErrorCode.ticketInvalid);
    // Nor does a mobile ticket serve the e-mail variant of the same purpose.
    const byEmail = await server
      .browser()
      .post(paths.web.passwordResetByEmailTicket, { ticket: resetTicket, password: GOOD_PASSWORD });
    expect(byEmail.body.data.error_code).toBe(ErrorCode.ticketInvalid);
  });

  it('is bound to its target: another number cannot use it, and the attempt does not burn it', async () => {
    const mobile = freshMobile();
    const ticket = await mobileTicket(server, server.browser(), mobile, CodeType.register);
    const other = await server.browser().post(paths.passport.mobileRegister, register(ticket, freshMobile()));
    expect(other.body.data.error_code).toBe(ErrorCode.ticketInvalid);
    const own = await server.browser().post(paths.passport.mobileRegister, register(ticket, mobile));
    expect(own.body.message).toBe('success');
  });

  it('expires ten minutes after it was issued', async () => {
    const mobile = freshMobile();
    const ticket = await mobileTicket(server, server.browser(), mobile, CodeType.register);
    skew += 10 * 60_000 + 1;
    const late = await server.browser().post(paths.passport.mobileRegister, register(ticket, mobile));
    expect(late.body.data.error_code).toBe(ErrorCode.ticketInvalid);
  });

  it('refuses made-up and malformed tickets without a 5xx', async () => {
    const mobile = freshMobile();
    for (const ticket of ['x', 'A'.repeat(43), 'A'.repeat(256), "' or 1=1 --"]) {
      const answer = await server.browser().post(paths.passport.mobileRegister, register(ticket, mobile));
      expect(answer.status, ticket).toBe(200);
      expect(answer.body.data.error_code, ticket).toBe(ErrorCode.ticketInvalid);
    }
  });
});
