import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affiliatePaths as aff, DEFAULTS, ErrorCode, OrganisationErrorCode, paths } from '../src/protocol';
import { signInBySms } from './support/flows';
import { startServer, type TestServer } from './support/server';

/**
 * The spec's request defaults (§5) where they mean something (docs/protocol.md, "Defaults"):
 * need_redirect on every GET redirect, need_plaintext on account/info, and invite_id 0, which names no
 * invitation and is not kept as a default. response_format_type is open/auth/token's
 * (test/sdk/open-auth-token.test.ts).
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

describe('need_redirect (default 1)', () => {
  const redirects = [
    `${paths.open.connect}?client_key=video-club&redirect_uri=${encodeURIComponent('https://app.example.com/cb')}&state=s1`,
    `${paths.open.connectResume}`,
    `${paths.passport.authWapLogin}?next=/after`,
  ];

  it.each(redirects)('%s: 302 by default and with 1; with 0 the same address as data', async (url) => {
    expect(DEFAULTS.needRedirect).toBe(1);
    const join = url.includes('?') ? '&' : '?';
    const browser = server.browser();
    const redirected = await browser.get(url);
    expect(redirected.status).toBe(302);
    const location = String(redirected.headers.location);
    expect((await browser.get(`${url}${join}need_redirect=1`)).headers.location).toBe(location);
    const asData = await browser.get(`${url}${join}need_redirect=0`);
    expect(asData.status).toBe(200);
    expect(asData.headers.location).toBeUndefined();
    const data = asData.body.data;
    expect(data).toEqual({ redirect_url: location });
  });

  it('refuses any other value as a bad parameter (400)', async () => {
    const answer = await server.browser().get(`${paths.passport.authWapLogin}?next=/after&need_redirect=2`);
    expect(answer.status).toBe(400);
  });
});

describe('need_plaintext (default false)', () => {
  it('account/info masks the account’s own mobile unless need_plaintext asks for it whole', async () => {
    expect(DEFAULTS.needPlaintext).toBe(false);
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const { mobile } = await server.app.db
      .selectFrom('users')
      .select('mobile')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const masked = await browser.get(paths.web.accountInfo);
    expect(masked.body.data.mobile).not.toBe(mobile);
    expect(masked.body.data.mobile).toContain('*');
    for (const asked of ['false', '0']) {
      const answer = await browser.get(`${paths.web.accountInfo}?need_plaintext=${asked}`);
      expect(answer.body.data.mobile, asked).toBe(masked.body.data.mobile);
    }
    for (const asked of ['true', '1']) {
      const answer = await browser.get(`${paths.web.accountInfo}?need_plaintext=${asked}`);
      expect(answer.body.data.mobile, asked).toBe(mobile);
      expect(answer.body.data.email, asked).toBe('');
    }
    const sso = await browser.get(`${paths.sso.accountInfo}?need_plaintext=true`);
    expect(sso.body.data.mobile).toBe(mobile);
    expect((await browser.get(`${paths.web.accountInfo}?need_plaintext=yes`)).status).toBe(400);
  });

  it('without a session it is NOT_LOGGED_IN as ever', async () => {
    const answer = await server.browser().get(`${paths.web.accountInfo}?need_plaintext=true`);
    expect(answer.body.data.error_code).toBe(ErrorCode.notLoggedIn);
  });
});

describe('invite_id 0', () => {
  it('is no default: it names no invitation, and a call that takes one answers INVITATION_NOT_FOUND', async () => {
    expect(DEFAULTS).not.toHaveProperty('inviteId');
    const browser = server.browser();
    await signInBySms(server, browser);
    const created = await browser.post(aff.subjectCreateByMobile, {
      subject_name: 'Harbour Works',
      deputy_name: 'Boss',
    });
    const subject_uid = created.body.data.sec_subject_uid as string;
    for (const route of [aff.inviteCancel, aff.inviteResend]) {
      const answer = await browser.post(route, { subject_uid, invite_id: '0' });
      expect(answer.body.data.error_code, route).toBe(OrganisationErrorCode.invitationNotFound);
    }
  });
});
