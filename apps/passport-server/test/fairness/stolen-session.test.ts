import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affiliatePaths as aff, CodeType, ErrorCode, passkeyPaths, paths } from '../../src/protocol';
import { openAuthRecordsLeft, seedAppGrant } from '../support/app-grants';
import {
  emailCode,
  isSignedIn,
  mobileCode,
  OTHER_GOOD_PASSWORD,
  passCooldown,
  signInBySms,
} from '../support/flows';
import { type Browser, codeFor, freshEmail, startServer, type TestServer } from '../support/server';

/**
 * A stolen session against the owner (docs/security.md, "Identifiers and verification tickets"): past
 * the step-up window it adds no way in, nor renews itself through a QR sign-in it confirms; the owner's
 * password reset ends it, forgets the remembered devices, revokes the apps it may have authorised and
 * tells every verified channel, whatever strangers sent to those channels before. The
 * session's verification time is a database column, the codes, tickets and the gate's budgets are the
 * store's: run on every backend.
 */

const WINDOW_MS = 10 * 60_000;
/** The server's clock: a test moves it past the step-up window. */
let skew = 0;
let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { secondVerify: true },
    { limits: { sendCooldownMs: 5 }, now: () => Date.now() + skew },
  );
});
afterAll(async () => server?.close());

function browserOn(address: string): Browser {
  const browser = server.browser();
  browser.remoteAddress = address;
  browser.cookies.set('s_v_web_id', `verify_${randomBytes(16).toString('hex')}`);
  return browser;
}

/** Another machine holding a copy of `browser`'s cookies: its session, stolen. */
function stolen(browser: Browser, address: string): Browser {
  const thief = browserOn(address);
  for (const [name, value] of browser.cookies) thief.cookies.set(name, value);
  return thief;
}

const errorCodeOf = (answer: { body: { data?: { error_code?: number } } }) => answer.body.data?.error_code;

async function messagesTo(to: string): Promise<{ text: string; created_at: number }[]> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/dev/outbox/messages?to=${encodeURIComponent(to)}`,
  });
  return response.json().data.messages;
}

describe('a stolen session', () => {
  it('past the step-up window binds no e-mail, sets no password or username, adds no authenticator or passkey; a code to the owner’s own mobile opens the window again', async () => {
    const home = browserOn('198.51.100.30');
    const { mobile } = await signInBySms(server, home);
    const thief = stolen(home, '203.0.113.70');
    skew += WINDOW_MS + 60_000;

    const email = freshEmail();
    const bindCode = await emailCode(server, thief, email, CodeType.bind);
    const bind = await thief.post(paths.web.emailBind, { email, code: bindCode });
    expect(errorCodeOf(bind), JSON.stringify(bind.body)).toBe(ErrorCode.stepUpRequired);
    for (const attempt of [
      thief.post(paths.web.passwordSet, { password: OTHER_GOOD_PASSWORD }),
      thief.post(paths.passport.accountSet, {
        username: `t${randomBytes(5).toString('hex')}`,
        password: OTHER_GOOD_PASSWORD,
      }),
      thief.post(paths.web.totpStart, {}),
      thief.post(passkeyPaths.registerOptions, {}),
    ]) {
      const refused = await attempt;
      expect(errorCodeOf(refused), JSON.stringify(refused.body)).toBe(ErrorCode.stepUpRequired);
    }
    const info = await home.get(paths.web.accountInfo);
    expect(info.body.data).toMatchObject({ email: '', username: '', has_password: false });

    // The owner proves it is them with a code to the account's own mobile; the same bind code binds.
    const own = await mobileCode(server, home, mobile, CodeType.oldMobile);
    const verified = await home.post(paths.web.authVerify, { mobile, code: own });
    expect(verified.body.message, JSON.stringify(verified.body)).toBe('success');
    const bound = await home.post(paths.web.emailBind, { email, code: bindCode });
    expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');
  });

  it('past the window cannot renew itself by a QR sign-in it confirms: the new browser’s session carries its verification time', async () => {
    const home = browserOn('198.51.100.33');
    const { mobile } = await signInBySms(server, home);
    const thief = stolen(home, '203.0.113.73');
    skew += WINDOW_MS + 60_000;

    // The thief's own browser asks for a QR code; the stolen session scans and confirms it.
    const desktop = browserOn('203.0.113.74');
    const { token } = (await desktop.get('/passport/web/get_qrcode/')).body.data;
    expect((await thief.post('/passport/web/scan_qrcode/', { token })).body.message).toBe('success');
    const { number } = (await desktop.get(`/passport/web/check_qrconnect/?token=${token}`)).body.data;
    const confirmed = await thief.post('/passport/web/confirm_qrcode/', { token, number });
    expect(confirmed.body.message, JSON.stringify(confirmed.body)).toBe('success');
    const signedIn = await desktop.post('/passport/web/web_login/', { token });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');

    // A sign-in, but no proof that it is the owner: the step-up is still asked for.
    const email = freshEmail();
    const bindCode = await emailCode(server, desktop, email, CodeType.bind);
    const bind = await desktop.post(paths.web.emailBind, { email, code: bindCode });
    expect(errorCodeOf(bind), JSON.stringify(bind.body)).toBe(ErrorCode.stepUpRequired);

    // The two-step confirmation, with a code to the account's own mobile, is such a proof.
    const laptop = browserOn('198.51.100.34');
    const second = (await laptop.get('/passport/web/get_qrcode/')).body.data.token as string;
    const step = await home.post('/passport/qrcode/scan_qrcode/', { token: second });
    expect(step.body.message, JSON.stringify(step.body)).toBe('success');
    const shown = (await laptop.get(`/passport/web/check_qrconnect/?token=${second}`)).body.data.number;
    const byTicket = await home.post('/passport/qrcode/confirm_by_ticket/', {
      ticket: step.body.data.ticket,
      number: shown,
      code: await codeFor(server.app, mobile),
    });
    expect(byTicket.body.message, JSON.stringify(byTicket.body)).toBe('success');
    expect((await laptop.post('/passport/web/web_login/', { token: second })).body.message).toBe('success');
    const ownCode = await emailCode(server, laptop, email, CodeType.bind);
    const bound = await laptop.post(paths.web.emailBind, { email, code: ownCode });
    expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');
  });

  it('dies with the owner’s reset, which forgets every remembered device, revokes the apps it authorised and tells the mobile and the e-mail that strangers’ invitations had filled', async () => {
    const home = browserOn('198.51.100.31');
    const { mobile, userId } = await signInBySms(server, home);
    const email = freshEmail();
    const bindCode = await emailCode(server, home, email, CodeType.bind);
    expect((await home.post(paths.web.emailBind, { email, code: bindCode })).body.message).toBe('success');
    const thief = stolen(home, '203.0.113.71');
    // An app the stolen session authorised (the provider's own records): its grant and a refresh token,
    // which would outlive the sessions.
    const app = await seedAppGrant(server.app.db, userId);

    // Strangers fill the mobile's and the e-mail's messages for the hour with invitations.
    const stranger = browserOn('203.0.113.72');
    await signInBySms(server, stranger);
    const created = await stranger.post(aff.subjectCreateByMobile, {
      subject_name: 'Harbour Works',
      deputy_name: 'Boss',
    });
    expect(created.body.message, 'fixture: create subject').toBe('success');
    const subject_uid = created.body.data.sec_subject_uid as string;
    for (const [route, contact] of [
      [aff.inviteByMobile, mobile],
      [aff.inviteByEmail, email],
    ] as const) {
      let last = 0;
      for (let i = 0; i < 6; i += 1) {
        await passCooldown();
        last = errorCodeOf(await stranger.post(route, { subject_uid, contact, deputy_name: 'Guest' })) ?? 0;
      }
      expect(last, `fixture: the ${contact} budget is spent`).toBe(ErrorCode.sendLimit);
    }

    const before = server.app.runtime.now();
    const laptop = browserOn('198.51.100.32');
    const code = await mobileCode(server, laptop, mobile, CodeType.resetPassword);
    const reset = await laptop.post(paths.web.passwordReset, { mobile, code, password: OTHER_GOOD_PASSWORD });
    expect(reset.body.message, JSON.stringify(reset.body)).toBe('success');

    expect(await isSignedIn(thief)).toBe(false);
    expect(await isSignedIn(home)).toBe(false);
    const devices = await server.app.db
      .selectFrom('devices')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(devices).toHaveLength(0);
    expect(await openAuthRecordsLeft(server.app.db, app.ids)).toEqual([]);
    const revoked = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('target_user_id', '=', userId)
      .where('type', '=', 'account.app_revoked')
      .execute();
    expect(revoked.map((event) => JSON.parse(event.data))).toEqual([
      { clientId: app.clientId, appName: app.clientId, reason: 'revoked' },
    ]);
    // The thief's browser, with the new password, meets the second verification.
    const again = await thief.post(paths.web.userLogin, { mobile, password: OTHER_GOOD_PASSWORD });
    expect(errorCodeOf(again)).toBe(ErrorCode.secondVerify);

    // Told on both verified channels: the notices are the account's own, not strangers' messages.
    for (const to of [mobile, email]) {
      const notices = (await messagesTo(to)).filter(
        (m) => m.created_at >= before && /密码|password/i.test(m.text) && !/\b\d{6}\b/.test(m.text),
      );
      expect(notices, `a notice to ${to}`).toHaveLength(1);
    }
  });
});
