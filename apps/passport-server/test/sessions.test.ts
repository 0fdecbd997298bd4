import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, ErrorCode, LANGUAGE_COOKIE, paths } from '../src/protocol';
import { passCooldown, signInBySms } from './support/flows';
import { follow, pkce, randomState } from './support/open-auth-client';
import { type Browser, codeFor, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
/** A navigation the browser vouches for: a link on this site's own page (flows/sign-out). */
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
let clock = Date.now();
beforeAll(async () => {
  server = await startServer(
    {
      sessionIdleSeconds: 3600,
      sessionAbsoluteSeconds: 4 * 3600,
      allowedOrigins: ['https://app.example.com'],
    },
    { now: () => clock },
  );
});
afterAll(async () => server?.close());

async function signIn(browser: Browser) {
  const mobile = freshMobile();
  await browser.post('/passport/web/send_code/', { mobile, type: 24 });
  const login = await browser.post('/passport/web/sms_login/', {
    mobile,
    code: await codeFor(server.app, mobile),
  });
  expect(login.body.message).toBe('success');
  return { mobile, userId: login.body.data.user_id as string };
}

const sessionCount = async (userId: string) =>
  (await server.app.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute())
    .length;

describe('sessions', () => {
  it('needs a session for account info', async () => {
    const answer = await server.browser().get('/passport/web/account/info/');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      message: 'error',
      data: { error_code: ErrorCode.notLoggedIn, description: expect.any(String) },
    });
  });

  it('sets an HttpOnly, SameSite=Lax session cookie holding an opaque token stored only as its SHA-256', async () => {
    const browser = server.browser();
    const { userId } = await signIn(browser);
    const token = browser.cookies.get('sessionid');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await server.app.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(rows.map((r) => r.token_hash)).toEqual([
      createHash('sha256')
        .update(token ?? '')
        .digest('hex'),
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('marks the session cookie HttpOnly and SameSite=Lax on path /', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const login = await browser.post('/passport/web/sms_login/', {
      mobile,
      code: await codeFor(server.app, mobile),
    });
    const cookie = (
      login.raw.cookies as { name: string; httpOnly?: boolean; sameSite?: string; path?: string }[]
    ).find((c) => c.name === 'sessionid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  });

  it('rotates the session on every sign-in: the old token dies', async () => {
    const browser = server.browser();
    const { mobile, userId } = await signIn(browser);
    const before = browser.cookies.get('sessionid');
    await server.app.accounts.setPasswordHash(userId, await server.app.passwords.hash('rotation password'));
    const again = await browser.post('/passport/web/user/login/', { mobile, password: 'rotation password' });
    expect(again.body.message).toBe('success');
    const after = browser.cookies.get('sessionid');
    expect(after).not.toBe(before);
    expect(await sessionCount(userId)).toBe(1);

    const stale = server.browser();
    stale.cookies.set('sessionid', before ?? '');
    expect((await stale.get('/passport/web/account/info/')).body.data.error_code).toBe(ErrorCode.notLoggedIn);
  });

  it('kills the session on logout, server side', async () => {
    const browser = server.browser();
    const { userId } = await signIn(browser);
    const token = browser.cookies.get('sessionid') ?? '';
    const out = await browser.post('/passport/web/logout/');
    expect(out.body).toEqual({ message: 'success', data: { next: '/' } });
    expect(browser.cookies.has('sessionid')).toBe(false);
    expect(await sessionCount(userId)).toBe(0);

    const replay = server.browser();
    replay.cookies.set('sessionid', token);
    expect((await replay.get('/passport/web/account/info/')).body.data.error_code).toBe(
      ErrorCode.notLoggedIn,
    );
  });

  it('logs out by GET and redirects only to same-origin paths or allow-listed origins', async () => {
    const browser = server.browser();
    await signIn(browser);
    const out = await browser.get('/passport/web/logout/?next=%2Fhome%3Ftab%3D1', SAME_ORIGIN);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/home?tab=1');
    expect((await browser.get('/passport/web/account/info/')).body.data.error_code).toBe(
      ErrorCode.notLoggedIn,
    );

    const targets: [string, string][] = [
      ['https://app.example.com/after', 'https://app.example.com/after'],
      ['https://evil.example.com/', '/'],
      ['//evil.example.com/x', '/'],
      ['/\\evil.example.com', '/'],
      ['https://app.example.com.evil.com/', '/'],
      ['javascript:alert(1)', '/'],
      ['%E0%A4%A', '/'],
    ];
    for (const [next, expected] of targets) {
      const answer = await server
        .browser()
        .get(`/passport/web/logout/?next=${encodeURIComponent(next)}`, SAME_ORIGIN);
      expect(answer.status, next).toBe(302);
      expect(answer.headers.location, next).toBe(expected);
    }
  });

  it('answers JSON instead of redirecting when not_redirect=1', async () => {
    const answer = await server.browser().get('/passport/web/logout/?not_redirect=1&next=/x', SAME_ORIGIN);
    expect(answer.body).toEqual({ message: 'success', data: { next: '/x' } });
  });

  it('refuses a cross-site GET logout that a foreign page triggered', async () => {
    const browser = server.browser();
    await signIn(browser);
    const forced = await browser.get('/passport/web/logout/', {
      'sec-fetch-site': 'cross-site',
      referer: 'https://evil.example.com/page',
    });
    expect(forced.status).toBe(403);
    expect((await browser.get('/passport/web/account/info/')).body.message).toBe('success');
    // A link from an allowed origin is no forgery, but no proof either: the person is asked first.
    const asked = await browser.get('/passport/web/logout/', {
      'sec-fetch-site': 'cross-site',
      referer: 'https://app.example.com/settings',
    });
    expect(asked.status).toBe(200);
    expect((await browser.get('/passport/web/account/info/')).body.message).toBe('success');
  });

  it('ends a session that sat idle longer than the idle timeout', async () => {
    const browser = server.browser();
    const { userId } = await signIn(browser);
    clock += 3600_000 + 1;
    expect((await browser.get('/passport/web/account/info/')).body.data.error_code).toBe(
      ErrorCode.notLoggedIn,
    );
    expect(await sessionCount(userId)).toBe(0);
  });

  it('slides the idle expiry with use but never past the absolute timeout', async () => {
    const browser = server.browser();
    await signIn(browser);
    for (let i = 0; i < 4; i++) {
      clock += 50 * 60_000;
      expect((await browser.get('/passport/web/account/info/')).body.message).toBe('success');
    }
    // 200 minutes in, last used just now, idle limit 60: only the 240-minute absolute limit can end it.
    clock += 40 * 60_000;
    expect((await browser.get('/passport/web/account/info/')).body.data.error_code).toBe(
      ErrorCode.notLoggedIn,
    );
  });

  it('does not write the session on every request', async () => {
    const browser = server.browser();
    const { userId } = await signIn(browser);
    const read = async () =>
      (
        await server.app.db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('user_id', '=', userId)
          .executeTakeFirst()
      )?.last_seen_at;
    const first = await read();
    clock += 1000;
    await browser.get('/passport/web/account/info/');
    expect(await read()).toBe(first);
    clock += 60_000;
    await browser.get('/passport/web/account/info/');
    expect(await read()).toBe(clock);
  });

  it('sweeps expired sessions and codes from the database', async () => {
    const browser = server.browser();
    const { userId } = await signIn(browser);
    clock += 5 * 3600_000;
    await server.app.sweep();
    expect(await sessionCount(userId)).toBe(0);
  });
});

/**
 * SECURITY.md, sessions: "Secure and `__Host-` prefix behind https". Whether the server is behind https
 * is PUBLIC_ORIGIN's scheme (a TLS-terminating proxy in front), never the request's: X-Forwarded-Proto
 * does not change a cookie's name, or a browser would hold two sessions under two names. Each setup
 * walks every flow that sets a cookie (a visit, SMS sign-in, a QR code, a third-party start, open
 * authorization through the provider and its consent, logout) and looks at every Set-Cookie.
 */
describe('cookies behind https and on http', () => {
  const REGISTRATION_TOKEN = 'initial-access-token-0123456789abcdef';
  const CALLBACK = 'https://app.example.com/callback';
  const settings = (publicOrigin: string) => ({
    publicOrigin,
    allowedOrigins: [],
    oauth: {
      github: {
        clientId: 'portico-github',
        clientSecret: 'github-secret-0123456789',
        baseUrl: 'https://github.example',
        apiUrl: 'https://api.github.example',
      },
      devOrigins: [],
    },
    openAuth: { registrationToken: REGISTRATION_TOKEN, scopes: [] },
  });
  let https: TestServer;
  let shared: TestServer;
  let http: TestServer;
  beforeAll(async () => {
    // A short send cooldown: the person signs in twice with codes to one mobile.
    const limits = { limits: { sendCooldownMs: 5 } };
    [https, shared, http] = await Promise.all([
      startServer(settings('https://passport.example.com'), limits),
      startServer({ ...settings('https://passport.example.com'), cookieDomain: 'example.com' }, limits),
      // Trusting every proxy: the forwarded scheme is believed as far as Fastify goes, and still
      // changes no cookie.
      startServer({ ...settings('http://localhost:3000'), trustProxy: true }, limits),
    ]);
  });
  afterAll(async () => {
    await Promise.all([https?.close(), shared?.close(), http?.close()]);
  });

  interface SetCookie {
    name: string;
    value: string;
    path?: string;
    domain?: string;
    secure?: boolean;
    httpOnly?: boolean;
  }

  /** Every Set-Cookie of every flow that sets one, in order, with the request that got it. */
  async function everyCookie(on: TestServer, headers: Record<string, string> = {}) {
    const set: (SetCookie & { by: string })[] = [];
    const browser = on.browser();
    browser.headers = headers;
    const request = browser.request.bind(browser);
    browser.request = async (method, url, form, extra) => {
      const answer = await request(method, url, form, extra);
      for (const cookie of answer.raw.cookies as SetCookie[]) set.push({ ...cookie, by: `${method} ${url}` });
      return answer;
    };
    await browser.get(paths.web.accountInfo);
    const { mobile } = await signInBySms(on, browser);
    // The person saves a language; the sign-in at the end hands it to this browser, which has none.
    await browser.post(paths.profile.updateLanguage, { language: 'en' });
    await browser.get(paths.web.getQrcode);
    await browser.get(`${paths.passport.authLogin}?platform_app_id=github&next=/`);
    // Open authorization: a client registered by RFC 7591, the spec's connect redirect, the provider,
    // the consent page's approval and the provider's redirect back to the app.
    const registered = await on.app.inject({
      method: 'POST',
      url: '/oauth/reg',
      headers: { authorization: `Bearer ${REGISTRATION_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_name: 'Cookie Jar', redirect_uris: [CALLBACK] }),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const query = new URLSearchParams({
      client_key: registered.json().client_id,
      scope: 'user_info',
      state: randomState(),
      redirect_uri: CALLBACK,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const consent = await follow(browser, `${paths.open.connect}?${query}`, CALLBACK);
    expect(consent.interaction, 'fixture: the provider sends the person to the consent page').toBeTruthy();
    const approved = await browser.post(paths.open.webAuth, {
      interaction: consent.interaction ?? '',
      approve: 1,
      scope: '',
    });
    expect(approved.body.status_code, JSON.stringify(approved.body)).toBe(0);
    const back = await follow(browser, approved.body.data.redirect_url, CALLBACK);
    expect(back.callback?.searchParams.get('code'), 'fixture: the app gets a code').toBeTruthy();
    await browser.post(paths.web.logout, {});
    await passCooldown();
    await signInBySms(on, browser, mobile);
    return set;
  }

  /** The names set, without the signature cookies of the provider (`<name>.sig`, same attributes). */
  const namesOf = (set: SetCookie[]) =>
    [...new Set(set.map((c) => c.name))].filter((n) => !n.endsWith('.sig'));

  /**
   * What a browser enforces for the prefixes, and what we hold every cookie to behind https: Secure;
   * `__Host-` when it is for the whole host (Path=/, no Domain), `__Secure-` otherwise. The one
   * exception is the CSRF cookie, which the SDK reads by its name (passport_csrf_token, docs/protocol.md)
   * and which no sibling can use: the header is compared with the server's HMAC of the session. The
   * language cookie keeps its protocol name too: the pages read and write it, and it holds a language.
   */
  function prefixProblems(set: (SetCookie & { by: string })[]): string[] {
    const problems: string[] = [];
    for (const cookie of set) {
      const where = `${cookie.name} (${cookie.by})`;
      if (!cookie.secure) problems.push(`${where}: not Secure`);
      if (cookie.name === CSRF_COOKIE || cookie.name === LANGUAGE_COOKIE) continue;
      const wholeHost = cookie.path === '/' && cookie.domain === undefined;
      if (wholeHost && !cookie.name.startsWith('__Host-')) problems.push(`${where}: Path=/ without __Host-`);
      if (!wholeHost && !cookie.name.startsWith('__Secure-'))
        problems.push(`${where}: path ${cookie.path}, domain ${cookie.domain} without __Secure-`);
    }
    return problems;
  }

  it('behind an https PUBLIC_ORIGIN, sets every cookie Secure, with __Host- for the whole host and __Secure- on a narrower path', async () => {
    const set = await everyCookie(https);
    expect(prefixProblems(set)).toEqual([]);
    expect(namesOf(set).sort()).toEqual(
      [
        '__Host-passport_pre',
        CSRF_COOKIE,
        '__Host-sessionid',
        '__Host-passport_device',
        '__Host-passport_qr',
        '__Host-passport_oauth',
        '__Secure-passport_open_auth_state',
        LANGUAGE_COOKIE,
        // The OpenID provider's own: its session, and the interaction cookies on their paths.
        '__Host-_session',
        '__Secure-_interaction',
        '__Secure-_interaction_resume',
      ].sort(),
    );
    for (const cookie of set) {
      if (cookie.name !== CSRF_COOKIE && cookie.name !== LANGUAGE_COOKIE)
        expect(cookie.httpOnly, cookie.name).toBe(true);
    }
    // A plain request to the https origin (the proxy forwards no scheme) gets the same names.
    const plain = https.browser();
    await plain.get(paths.web.accountInfo);
    expect([...plain.cookies.keys()].sort()).toEqual(['__Host-passport_pre', CSRF_COOKIE].sort());
  });

  it('with COOKIE_DOMAIN behind https, the session, pre-session and CSRF cookies name the domain and take __Secure-', async () => {
    const set = await everyCookie(shared);
    expect(prefixProblems(set)).toEqual([]);
    const domains = Object.fromEntries(set.map((c) => [c.name, c.domain ?? null]));
    expect(domains).toMatchObject({
      '__Secure-sessionid': 'example.com',
      '__Secure-passport_pre': 'example.com',
      [CSRF_COOKIE]: 'example.com',
      [LANGUAGE_COOKIE]: 'example.com',
      '__Host-passport_device': null,
      '__Host-_session': null,
    });
  });

  it('on http loopback sets no cookie Secure and none with a prefix, whatever X-Forwarded-Proto says', async () => {
    const set = await everyCookie(http, { 'x-forwarded-proto': 'https' });
    expect(set.filter((c) => c.secure).map((c) => c.name)).toEqual([]);
    expect(namesOf(set).sort()).toEqual(
      [
        'passport_pre',
        CSRF_COOKIE,
        'sessionid',
        'passport_device',
        'passport_qr',
        'passport_oauth',
        'passport_open_auth_state',
        LANGUAGE_COOKIE,
        '_session',
        '_interaction',
        '_interaction_resume',
      ].sort(),
    );
  });

  it('behind https reads the session only from __Host-sessionid: the same token under a planted name is no session', async () => {
    const browser = https.browser();
    const { userId } = await signInBySms(https, browser);
    const token = browser.cookies.get('__Host-sessionid') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // What a sibling subdomain, or a man in the middle on plain http, can set for this host.
    for (const name of ['sessionid', '__Secure-sessionid']) {
      const planted = https.browser();
      planted.cookies.set(name, token);
      const info = await planted.get(paths.web.accountInfo);
      expect(info.body.data.error_code, name).toBe(ErrorCode.notLoggedIn);
    }
    const own = await browser.get(paths.web.accountInfo);
    expect(own.body.data.user_id).toBe(userId);
  });
});
