import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, paths } from '../src/protocol';
import { type Browser, codeFor, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
let clock = Date.now();
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  server = await startServer(
    {
      allowedOrigins: ['https://app.example.com'],
      userToken: { audiences: ['https://api.example.com', 'https://other.example.com'] },
    },
    { now: () => clock, limits: { passwordFailuresPerAccount: 4 } },
  );
});
afterAll(async () => server?.close());

/** Signs a fresh browser in by SMS code, as the app-webview would, and gives the account a password. */
async function signedIn(options: { password?: boolean } = {}) {
  const browser = server.browser();
  const mobile = freshMobile();
  clock += 61_000;
  await browser.post(paths.web.sendCode, { mobile, type: 24 });
  const login = await browser.post(paths.web.smsLogin, { mobile, code: await codeFor(server.app, mobile) });
  expect(login.body.message).toBe('success');
  const userId: string = login.body.data.user_id;
  if (options.password) {
    await server.app.accounts.setPasswordHash(userId, await server.app.passwords.hash(PASSWORD));
  }
  return { browser, mobile, userId };
}

const notLoggedIn = {
  message: 'error',
  data: { error_code: ErrorCode.notLoggedIn, description: expect.any(String) },
};

/** A browser's cookies and CSRF header, for a request made without the jar's form encoding. */
function sameBrowser(browser: Browser): Record<string, string> {
  return {
    cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    'x-tt-passport-csrf-token': browser.cookies.get('passport_csrf_token') ?? '',
  };
}

async function sessionCount(userId: string) {
  const rows = await server.app.db
    .selectFrom('sessions')
    .select('token_hash')
    .where('user_id', '=', userId)
    .execute();
  return rows.length;
}

describe('GET /CheckLogin', () => {
  it('answers is_login false, as a success, when there is no session', async () => {
    const answer = await server.browser().get(paths.app.CheckLogin);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'success', data: { is_login: false } });
  });

  it('answers is_login true with the user id when the session is valid', async () => {
    const { browser, userId } = await signedIn();
    const answer = await browser.get(paths.app.CheckLogin);
    expect(answer.body).toEqual({ message: 'success', data: { is_login: true, user_id: userId } });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('answers is_login false for a forged or unknown session cookie', async () => {
    const browser = server.browser();
    browser.cookies.set('sessionid', 'A'.repeat(43));
    expect((await browser.get(paths.app.CheckLogin)).body.data).toEqual({ is_login: false });
  });
});

describe('GET /GetUserInfo', () => {
  it('answers NOT_LOGGED_IN without a session', async () => {
    const answer = await server.browser().get(paths.app.GetUserInfo);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(notLoggedIn);
  });

  it('answers the same account view as account/info, identifiers masked', async () => {
    const { browser, mobile, userId } = await signedIn();
    const app = await browser.get(paths.app.GetUserInfo);
    const web = await browser.get(paths.web.accountInfo);
    expect(app.body).toEqual(web.body);
    expect(app.body.data.user_id).toBe(userId);
    expect(JSON.stringify(app.body)).not.toContain(mobile.slice(-8));
  });
});

describe('POST /Logout', () => {
  it('refuses a request without the CSRF header with 403 and leaves the session alive', async () => {
    const { browser, userId } = await signedIn();
    browser.sendCsrf = false;
    const answer = await browser.post(paths.app.Logout);
    expect(answer.status).toBe(403);
    expect(answer.body.data.error_code).toBe(ErrorCode.csrfFailed);
    expect(await sessionCount(userId)).toBe(1);
  });

  it('refuses a foreign Origin with 403', async () => {
    const { browser, userId } = await signedIn();
    const answer = await browser.post(paths.app.Logout, {}, { origin: 'https://evil.example.com' });
    expect(answer.status).toBe(403);
    expect(await sessionCount(userId)).toBe(1);
  });

  it('kills the session server side: the old cookie is dead when replayed', async () => {
    const { browser, userId } = await signedIn();
    const token = browser.cookies.get('sessionid') ?? '';
    const answer = await browser.post(paths.app.Logout);
    expect(answer.body).toEqual({ message: 'success', data: {} });
    expect(browser.cookies.has('sessionid')).toBe(false);
    expect(await sessionCount(userId)).toBe(0);
    const replay = server.browser();
    replay.cookies.set('sessionid', token);
    expect((await replay.get(paths.app.CheckLogin)).body.data).toEqual({ is_login: false });
  });

  it('succeeds without a session (the caller is logged out either way)', async () => {
    const answer = await server.browser().post(paths.app.Logout);
    expect(answer.body).toEqual({ message: 'success', data: {} });
  });

  it('accepts a POST with no body at all, as a native app may send it', async () => {
    const { browser, userId } = await signedIn();
    const answer = await server.app.inject({
      method: 'POST',
      url: paths.app.Logout,
      headers: sameBrowser(browser),
    });
    expect(answer.json()).toEqual({ message: 'success', data: {} });
    expect(await sessionCount(userId)).toBe(0);
  });

  it('does not log out by GET', async () => {
    const { browser, userId } = await signedIn();
    const answer = await browser.get(paths.app.Logout);
    expect(answer.status).toBe(404);
    expect(await sessionCount(userId)).toBe(1);
  });
});

describe('POST /Login', () => {
  it('signs in with a password and rotates the session', async () => {
    const { browser, mobile, userId } = await signedIn({ password: true });
    const before = browser.cookies.get('sessionid');
    const answer = await browser.post(paths.app.Login, { mobile, password: PASSWORD });
    expect(answer.body.message).toBe('success');
    expect(answer.body.data.user_id).toBe(userId);
    expect(browser.cookies.get('sessionid')).not.toBe(before);
    expect(await sessionCount(userId)).toBe(1);

    const fresh = server.browser();
    expect((await fresh.post(paths.app.Login, { account: mobile, password: PASSWORD })).body.message).toBe(
      'success',
    );
    expect((await fresh.get(paths.app.CheckLogin)).body.data).toEqual({ is_login: true, user_id: userId });
  });

  it('gives a wrong password and an unknown account the same answer', async () => {
    const { mobile } = await signedIn({ password: true });
    const wrong = await server.browser().post(paths.app.Login, { mobile, password: 'not the password' });
    const unknown = await server
      .browser()
      .post(paths.app.Login, { mobile: freshMobile(), password: PASSWORD });
    expect(wrong.body).toEqual({
      message: 'error',
      data: { error_code: ErrorCode.wrongCredentials, description: expect.any(String) },
    });
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.status).toBe(wrong.status);
  });

  it('shares the failure counter with the web password login, so switching paths buys no guesses', async () => {
    const { mobile } = await signedIn({ password: true });
    const guesser = server.browser();
    for (const path of [paths.app.Login, paths.web.userLogin, paths.app.Login, paths.web.userLogin]) {
      const miss = await guesser.post(path, { mobile, password: 'wrong guess' });
      expect(miss.body.data.error_code).toBe(ErrorCode.wrongCredentials);
    }
    const locked = await guesser.post(paths.app.Login, { mobile, password: PASSWORD });
    expect(locked.body.data.error_code).toBe(ErrorCode.temporarilyLocked);
    const web = await guesser.post(paths.web.userLogin, { mobile, password: PASSWORD });
    expect(web.body.data.error_code).toBe(ErrorCode.temporarilyLocked);
  });

  it('refuses a request without the CSRF header with 403', async () => {
    const browser = server.browser();
    browser.sendCsrf = false;
    const answer = await browser.post(paths.app.Login, { mobile: freshMobile(), password: PASSWORD });
    expect(answer.status).toBe(403);
  });

  it('asks for an identifier when none is given, and rejects a malformed body with 400', async () => {
    const none = await server.browser().post(paths.app.Login, { password: PASSWORD });
    expect(none.body.data.error_code).toBe(ErrorCode.identifierRequired);
    const bad = await server.browser().post(paths.app.Login, { mobile: freshMobile() });
    expect(bad.status).toBe(400);
    expect(bad.body.data.error_code).toBe(ErrorCode.invalidParam);
  });
});

describe('POST /GetUserToken', () => {
  it('answers NOT_LOGGED_IN without a session', async () => {
    const answer = await server.browser().post(paths.app.GetUserToken);
    expect(answer.body).toEqual(notLoggedIn);
  });

  it('refuses a request without the CSRF header with 403, and is not offered as a GET', async () => {
    const { browser } = await signedIn();
    browser.sendCsrf = false;
    expect((await browser.post(paths.app.GetUserToken)).status).toBe(403);
    expect((await browser.get(paths.app.GetUserToken)).status).toBe(404);
  });

  it('issues a Bearer token for the first configured audience, never cached', async () => {
    const { browser } = await signedIn();
    const answer = await browser.post(paths.app.GetUserToken);
    expect(answer.body).toEqual({
      message: 'success',
      data: {
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        token_type: 'Bearer',
        expires_in: 300,
        expires_at: (Math.floor(clock / 1000) + 300) * 1000,
      },
    });
    expect(answer.headers['cache-control']).toBe('no-store');
    const claims = JSON.parse(Buffer.from(answer.body.data.token.split('.')[1], 'base64url').toString());
    expect(claims.aud).toBe('https://api.example.com');
  });

  it('accepts a POST with no body at all, as a native app may send it', async () => {
    const { browser } = await signedIn();
    const answer = await server.app.inject({
      method: 'POST',
      url: paths.app.GetUserToken,
      headers: sameBrowser(browser),
    });
    expect(answer.json().message).toBe('success');
  });

  it('issues for another configured audience on request, and refuses one that is not configured', async () => {
    const { browser } = await signedIn();
    const other = await browser.post(paths.app.GetUserToken, { aud: 'https://other.example.com' });
    const claims = JSON.parse(Buffer.from(other.body.data.token.split('.')[1], 'base64url').toString());
    expect(claims.aud).toBe('https://other.example.com');
    const foreign = await browser.post(paths.app.GetUserToken, { aud: 'https://evil.example.com' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.data).toMatchObject({ error_code: ErrorCode.invalidParam, field: 'aud' });
  });

  it('answers the health probes: live while it serves, ready while the database and the store answer', async () => {
    for (const [path, data] of [
      ['/livez', { live: true }],
      ['/readyz', { ready: true }],
    ] as const) {
      const answer = await server.browser().get(path);
      expect(answer.body, path).toEqual({ message: 'success', data });
      expect(answer.headers['cache-control'], path).toBe('no-store');
    }
  });

  it('refuses a frozen account', async () => {
    const { browser, userId } = await signedIn();
    await server.app.db.updateTable('users').set({ is_frozen: 1 }).where('id', '=', userId).execute();
    const answer = await browser.post(paths.app.GetUserToken);
    expect(answer.body.data.error_code).toBe(ErrorCode.accountFrozen);
  });
});
