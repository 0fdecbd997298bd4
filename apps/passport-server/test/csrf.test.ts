import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
