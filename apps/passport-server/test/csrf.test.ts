import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { ErrorCode } from '../src/protocol';
import { codeFor, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ allowedOrigins: ['https://app.example.com'] });
});
afterAll(async () => server?.close());

const send = { type: 24 };

describe('CSRF', () => {
  it('gives every visitor a readable CSRF cookie bound to a pre-session', async () => {
    const browser = server.browser();
    const answer = await browser.get('/passport/web/account/info/');
    const csrf = (answer.raw.cookies as { name: string; httpOnly?: boolean }[]).find(
      (c) => c.name === 'passport_csrf_token',
    );
    expect(csrf?.httpOnly).not.toBe(true);
    expect(browser.cookies.get('passport_pre')).toBeDefined();
  });

  it('refuses a POST without the header with 403', async () => {
    const browser = server.browser();
    browser.sendCsrf = false;
    const answer = await browser.post('/passport/web/send_code/', { mobile: freshMobile(), ...send });
    expect(answer.status).toBe(403);
    expect(answer.body.data.error_code).toBe(ErrorCode.csrfFailed);
  });

  it('refuses a header that does not match the token', async () => {
    const browser = server.browser();
    await browser.get('/passport/web/account/info/');
    const answer = await browser.post(
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { 'x-tt-passport-csrf-token': 'A'.repeat(43) },
    );
    expect(answer.status).toBe(403);
  });

  it('refuses a cookie and header pair planted from another session, even when they match each other', async () => {
    const attacker = server.browser();
    await attacker.get('/passport/web/account/info/');
    const victim = server.browser();
    await victim.get('/passport/web/account/info/');
    victim.cookies.set('passport_csrf_token', attacker.cookies.get('passport_csrf_token') ?? '');
    const answer = await victim.post('/passport/web/send_code/', { mobile: freshMobile(), ...send });
    expect(answer.status).toBe(403);
  });

  it('binds the token to the session after sign-in: the pre-session token stops working', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, ...send });
    const before = browser.cookies.get('passport_csrf_token') ?? '';
    await browser.post('/passport/web/sms_login/', { mobile, code: await codeFor(server.app, mobile) });
    const after = browser.cookies.get('passport_csrf_token');
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const stale = await browser.post('/passport/web/logout/', {}, { 'x-tt-passport-csrf-token': before });
    expect(stale.status).toBe(403);
    expect((await browser.post('/passport/web/logout/')).body.message).toBe('success');
  });

  it('refuses a foreign Origin and accepts an allow-listed one', async () => {
    const browser = server.browser();
    const foreign = await browser.post(
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { origin: 'https://evil.example.com' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.data.error_code).toBe(ErrorCode.originNotAllowed);
    const allowed = await browser.post(
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { origin: 'https://app.example.com' },
    );
    expect(allowed.body.message).toBe('success');
  });

  it('refuses Sec-Fetch-Site: cross-site without an Origin', async () => {
    const browser = server.browser();
    const answer = await browser.post(
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(answer.status).toBe(403);
  });

  it('refuses text/plain bodies with 415 (no CSRF through simple requests)', async () => {
    const browser = server.browser();
    await browser.get('/passport/web/account/info/');
    const raw = await server.app.inject({
      method: 'POST',
      url: '/passport/web/send_code/',
      headers: {
        'content-type': 'text/plain',
        cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-tt-passport-csrf-token': browser.cookies.get('passport_csrf_token') ?? '',
      },
      payload: 'mobile=13800138000&type=24',
    });
    expect(raw.statusCode).toBe(415);
    expect(raw.json().data.error_code).toBe(ErrorCode.unsupportedMediaType);
  });
});

/** An app on another site than the passport, yet allowed: its browser withholds the passport's cookies. */
const ANOTHER_SITE = 'https://shop.another-site.test';

describe('CSRF refusals that come from the set-up say what to configure', () => {
  const logLines: string[] = [];
  let logged: TestServer;
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    // The development default: PUBLIC_ORIGIN http://localhost:3000 and what loadConfig derives from it.
    const { publicOrigin, allowedOrigins } = loadConfig({ PORT: '3000' });
    logged = await startServer(
      { logLevel: 'info', publicOrigin, allowedOrigins: [...allowedOrigins, ANOTHER_SITE] },
      { logStream },
    );
  });
  afterAll(async () => logged?.close());
  const warnings = (text: string) =>
    logLines.filter((line) => line.includes('"level":40') && line.includes(text));

  it('treats localhost, 127.0.0.1 and [::1] on the port as one origin in the development default', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      const browser = logged.browser();
      await browser.get('/passport/web/account/info/');
      const answer = await browser.post(
        '/passport/web/send_code/',
        { mobile: freshMobile(), ...send },
        { origin },
      );
      expect(answer.body.message, origin).toBe('success');
    }
    const other = logged.browser();
    await other.get('/passport/web/account/info/');
    const otherPort = await other.post(
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { origin: 'http://127.0.0.1:3001' },
    );
    expect(otherPort.body.data.error_code).toBe(ErrorCode.originNotAllowed);
  });

  it('an untrusted origin: 1010 and one log line naming ALLOWED_ORIGINS', async () => {
    const origin = 'https://app.acme.test';
    for (let i = 0; i < 3; i += 1) {
      const browser = logged.browser();
      await browser.get('/passport/web/account/info/');
      const answer = await browser.post(
        '/passport/web/send_code/',
        { mobile: freshMobile(), ...send },
        { origin },
      );
      expect(answer.status).toBe(403);
      expect(answer.body.data.error_code).toBe(ErrorCode.originNotAllowed);
    }
    const lines = warnings(origin);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ALLOWED_ORIGINS');
  });

  it('a page that cannot read the token cookie (another host): 1011 and a log line naming COOKIE_DOMAIN', async () => {
    // The browser holds the passport's host-only cookie and sends it; the page on the app's host could
    // not read it, so no header came.
    const browser = logged.browser();
    await browser.get('/passport/web/account/info/');
    browser.sendCsrf = false;
    const answer = await browser.post(
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { origin: 'http://127.0.0.1:3000' },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.data.error_code).toBe(ErrorCode.csrfCookieUnreadable);
    expect(warnings('cannot read the passport_csrf_token cookie').join('\n')).toContain('COOKIE_DOMAIN');
  });

  it('a page on another site (allowed, but its browser withholds our cookies): 1012 and a log line naming the proxy', async () => {
    // SameSite=Lax cookies are not sent with a cross-site fetch, so no retry can ever succeed: the answer
    // must say so rather than "reload the page".
    for (let i = 0; i < 2; i += 1) {
      const browser = logged.browser();
      const answer = await browser.request(
        'POST',
        '/passport/web/send_code/',
        { mobile: freshMobile(), ...send },
        { origin: ANOTHER_SITE, 'sec-fetch-site': 'cross-site' },
      );
      expect(answer.status).toBe(403);
      expect(answer.body.data.error_code).toBe(ErrorCode.crossSitePage);
    }
    const lines = warnings(`a page at ${ANOTHER_SITE} is on another site`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('reverse proxy');
  });

  it('a first request with no cookie yet, or a stale token, stays the plain 1002 the SDK recovers from', async () => {
    const fresh = logged.browser();
    // request(), not post(): post() loads a page first, as a browser would, and this one has not.
    const first = await fresh.request(
      'POST',
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { origin: 'http://localhost:3000' },
    );
    expect(fresh.cookies.has('passport_csrf_token')).toBe(true);
    expect(first.body.data.error_code).toBe(ErrorCode.csrfFailed);
    const stale = await fresh.post(
      '/passport/web/send_code/',
      { mobile: freshMobile(), ...send },
      { origin: 'http://localhost:3000', 'x-tt-passport-csrf-token': 'A'.repeat(43) },
    );
    expect(stale.body.data.error_code).toBe(ErrorCode.csrfFailed);
  });
});
