import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/protocol';
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
