import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppMount } from '../src/config';
import { ErrorCode, LANGUAGE_COOKIE, paths } from '../src/protocol';
import { isSignedIn, signInBySms } from './support/flows';
import { type Browser, backend, startServer, type TestServer } from './support/server';

/**
 * SSO service tickets (README, "SSO"), on every backend: a ticket only for a registered service, once,
 * for 60 s, for the exact service URL; the error page for anything else; logout back to a service;
 * the sso app at /sso/ and at SSO_HOST's root.
 */

const SERVICE = 'https://svc.example.com';
const OTHER_SERVICE = 'http://127.0.0.1:4999';
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** A navigation the browser vouches for: a link on this site's own page (flows/sign-out). */
const SAME_ORIGIN = { accept: HTML, 'sec-fetch-site': 'same-origin' };
const SSO_INDEX = '<!doctype html><html><body><div id="sso"></div></body></html>';
const WEB_INDEX = '<!doctype html><html><body><div id="web"></div></body></html>';

let folder: string;
let apps: AppMount[];
let server: TestServer;
let skew = 0;

function fakeBuild(name: string, index: string, routes: string[]): string {
  const dist = join(folder, name);
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), index);
  writeFileSync(join(dist, 'assets', `${name}-abc.js`), `console.log(${JSON.stringify(name)});\n`);
  writeFileSync(join(dist, 'routes.json'), JSON.stringify({ routes }));
  return dist;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'portico-sso-'));
  apps = [
    {
      name: 'sso',
      mount: '/sso/',
      dist: fakeBuild('sso', SSO_INDEX, ['/login', '/sign-up', '/reset-password']),
    },
    { name: 'web', mount: '/', dist: fakeBuild('web', WEB_INDEX, ['/', '/login', '/workbench']) },
  ];
  server = await startServer(
    { apps, ssoServices: [SERVICE, OTHER_SERVICE] },
    { now: () => Date.now() + skew, limits: { sendCooldownMs: 5 } },
  );
});
afterAll(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

const loginUrl = (service: string, extra = '') => `/sso/login?service=${encodeURIComponent(service)}${extra}`;
const validateUrl = (service: string, ticket: string) =>
  `${paths.sso.serviceValidate}?service=${encodeURIComponent(service)}&ticket=${encodeURIComponent(ticket)}`;

async function signedIn(): Promise<{ browser: Browser; mobile: string; userId: string }> {
  const browser = server.browser();
  const { mobile, userId } = await signInBySms(server, browser);
  return { browser, mobile, userId };
}

/** Signs in at /sso/login for a service and answers the ticket the redirect carried. */
async function ticketFor(browser: Browser, service: string): Promise<string> {
  const answer = await browser.get(loginUrl(service), { accept: HTML });
  expect(answer.status, 'fixture: /sso/login redirects a signed-in browser').toBe(302);
  const location = new URL(String(answer.headers.location));
  return location.searchParams.get('ticket') ?? '';
}

/** What the service's back end gets for a ticket (no cookies: a server-to-server call). */
async function validate(service: string, ticket: string) {
  const answer = await server.app.inject({ method: 'GET', url: validateUrl(service, ticket) });
  return { status: answer.statusCode, body: answer.json(), headers: answer.headers };
}

describe('GET /sso/login', () => {
  it('serves the sso sign-in page, uncached, to a browser that is not signed in', async () => {
    const answer = await server.browser().get(loginUrl(`${SERVICE}/app`), { accept: HTML });
    expect(answer.status).toBe(200);
    expect(answer.raw.body).toBe(SSO_INDEX);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.location).toBeUndefined();
  });

  it('sends a signed-in browser to the registered service with a ticket, and stores only its hash', async () => {
    const { browser } = await signedIn();
    const service = `${SERVICE}/after/login?next=%2Fhome#top`;
    const answer = await browser.get(loginUrl(service), { accept: HTML });
    expect(answer.status).toBe(302);
    expect(answer.headers['cache-control']).toBe('no-store');
    const location = new URL(String(answer.headers.location));
    expect(location.origin + location.pathname).toBe(`${SERVICE}/after/login`);
    expect(location.searchParams.get('next')).toBe('/home');
    expect(location.hash).toBe('#top');
    const ticket = location.searchParams.get('ticket') ?? '';
    expect(ticket).toMatch(/^ST-[A-Za-z0-9_-]{43}$/);
    if (backend !== 'redis') {
      const rows = await server.app.db.selectFrom('store_entries').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(ticket.slice(3));
    }
  });

  it('hands out tickets of at least 128 random bits, a new one every time', async () => {
    const { browser } = await signedIn();
    const tickets = new Set<string>();
    for (let i = 0; i < 20; i++) tickets.add(await ticketFor(browser, SERVICE));
    expect(tickets.size).toBe(20);
    for (const ticket of tickets) {
      expect(ticket).toMatch(/^ST-[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(ticket.slice(3), 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it.each([
    ['an unregistered origin', 'https://evil.example.net/steal'],
    ['a look-alike host', 'https://svc.example.com.evil.net/'],
    ['the registered host over another scheme', 'http://svc.example.com/'],
    ['the registered host on another port', 'https://svc.example.com:8443/'],
    ['a relative path', '/workbench'],
    ['a protocol-relative URL', '//svc.example.com/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['credentials in the URL', 'https://user:pass@svc.example.com/'],
    ['a ticket of its own', 'https://svc.example.com/?ticket=ST-planted'],
    ['a backslash', 'https://svc.example.com\\@evil.example.net/'],
    ['a newline', 'https://svc.example.com/\nx'],
    ['an address too long', `https://svc.example.com/${'a'.repeat(2100)}`],
    ['nothing', ''],
  ])('answers %s with the error page: HTML, 400, no redirect, signed in or not', async (_, service) => {
    const { browser } = await signedIn();
    for (const who of [browser, server.browser()]) {
      const answer = await who.get(service ? loginUrl(service) : '/sso/login', { accept: HTML });
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.raw.body).toContain('无法登录该服务');
      expect(answer.raw.body).toContain(String(ErrorCode.redirectNotAllowed));
      expect(answer.raw.body).not.toContain('evil');
      // Styled as the apps are: its one style, and a policy that allows exactly that style.
      const style = /<style>([^<]*)<\/style>/.exec(answer.raw.body)?.[1] ?? '';
      const hash = createHash('sha256').update(style).digest('base64');
      expect(style).toContain('--brand');
      expect(answer.headers['content-security-policy']).toContain(`style-src 'sha256-${hash}'`);
    }
  });

  it('writes the error page in zh and en, the person’s language first: asked, chosen in the apps, the browser’s', async () => {
    const evil = loginUrl('https://evil.example.net/');
    /** A browser whose person chose `chosen` in the apps (their shared cookie), or none. */
    const browserOf = (chosen?: 'zh' | 'en') => {
      const browser = server.browser();
      if (chosen) browser.cookies.set(LANGUAGE_COOKIE, chosen);
      return browser;
    };
    const first = async (path: string, headers: Record<string, string>, chosen?: 'zh') => {
      const answer = await browserOf(chosen).get(path, { accept: HTML, ...headers });
      expect(answer.status).toBe(400);
      return /<html lang="([^"]+)">/.exec(answer.raw.body)?.[1];
    };
    const en = await browserOf().get(evil, { accept: HTML, 'accept-language': 'en-GB,en;q=0.9' });
    expect(en.raw.body).toContain('<html lang="en">');
    expect(en.raw.body).toMatch(/<h1>Cannot sign in to this service<\/h1>[\s\S]*<h2>无法登录该服务<\/h2>/);
    // The choice the person made in the apps (their shared cookie) beats the browser's language.
    const chosen = await browserOf('zh').get(evil, { accept: HTML, 'accept-language': 'en' });
    expect(chosen.raw.body).toMatch(
      /<h1>无法登录该服务<\/h1>[\s\S]*<section lang="en">\n<h2>Cannot sign in to this service<\/h2>/,
    );
    // What the link asks for beats both; nothing known is zh.
    expect(await first(loginUrl('https://evil.example.net/', '&language=en'), {}, 'zh')).toBe('en');
    expect(await first(loginUrl('https://evil.example.net/', '&ui_locales=en'), {}, 'zh')).toBe('en');
    expect(await first(evil, { 'accept-language': 'fr-FR' })).toBe('zh-CN');
  });
});

describe('GET /passport/sso/service_validate/', () => {
  it('trades a ticket for the user, in the sso envelope, with masked identifiers', async () => {
    const { browser, mobile, userId } = await signedIn();
    const ticket = await ticketFor(browser, `${SERVICE}/cb`);
    const answer = await validate(`${SERVICE}/cb`, ticket);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toMatchObject({ error_code: 0, description: '' });
    expect(answer.body.data).toEqual({
      user_id: userId,
      screen_name: expect.any(String),
      mobile: expect.stringMatching(/^\+86\*+\d{4}$/),
      email: '',
    });
    expect(answer.body.data.mobile).not.toBe(mobile);
  });

  it('validates a ticket once: the second validation fails', async () => {
    const { browser } = await signedIn();
    const ticket = await ticketFor(browser, SERVICE);
    expect((await validate(SERVICE, ticket)).body.error_code).toBe(0);
    const again = await validate(SERVICE, ticket);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      error_code: ErrorCode.ticketInvalid,
      data: { error_code: ErrorCode.ticketInvalid },
    });
  });

  it('lets exactly one of many concurrent validations of a ticket succeed', async () => {
    const { browser } = await signedIn();
    for (let round = 0; round < 3; round++) {
      const ticket = await ticketFor(browser, SERVICE);
      const answers = await Promise.all(Array.from({ length: 12 }, () => validate(SERVICE, ticket)));
      const codes = answers.map((answer) => answer.body.error_code);
      expect(codes.filter((code) => code === 0)).toHaveLength(1);
      expect(codes.filter((code) => code === ErrorCode.ticketInvalid)).toHaveLength(11);
    }
  });

  it('keeps a ticket for 60 seconds and not a moment longer', async () => {
    const { browser } = await signedIn();
    const fresh = await ticketFor(browser, SERVICE);
    const stale = await ticketFor(browser, SERVICE);
    try {
      skew = 59_000;
      expect((await validate(SERVICE, fresh)).body.error_code).toBe(0);
      skew = 60_000;
      expect((await validate(SERVICE, stale)).body.error_code).toBe(ErrorCode.ticketInvalid);
    } finally {
      skew = 0;
    }
  });

  it.each([
    ['another path', `${SERVICE}/app?x=1`, `${SERVICE}/other?x=1`],
    ['another query', `${SERVICE}/app?x=1`, `${SERVICE}/app?x=2`],
    ['no query', `${SERVICE}/app?x=1`, `${SERVICE}/app`],
    ['a trailing slash', `${SERVICE}/app`, `${SERVICE}/app/`],
    ['another registered service', `${SERVICE}/app`, `${OTHER_SERVICE}/app`],
    ['another case', `${SERVICE}/app`, `${SERVICE}/APP`],
  ])(
    'binds a ticket to the exact service URL: %s fails, and uses the ticket up',
    async (_, issued, quoted) => {
      const { browser } = await signedIn();
      const ticket = await ticketFor(browser, issued);
      expect((await validate(quoted, ticket)).body.error_code).toBe(ErrorCode.ticketInvalid);
      // One attempt per ticket (CAS): after a wrong service, the right one is refused too.
      expect((await validate(issued, ticket)).body.error_code).toBe(ErrorCode.ticketInvalid);
    },
  );

  it('refuses an unregistered service with 400 and leaves the ticket alone', async () => {
    const { browser } = await signedIn();
    const ticket = await ticketFor(browser, SERVICE);
    const answer = await validate('https://evil.example.net/', ticket);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: ErrorCode.redirectNotAllowed });
    expect((await validate(SERVICE, ticket)).body.error_code).toBe(0);
  });

  it.each([
    ['a made-up ticket', `ST-${'A'.repeat(43)}`],
    ['a ticket of another shape', 'abc'],
    ['a verify ticket', 'A'.repeat(43)],
  ])('answers %s with TICKET_INVALID', async (_, ticket) => {
    const answer = await validate(SERVICE, ticket);
    expect(answer.status).toBe(200);
    expect(answer.body.error_code).toBe(ErrorCode.ticketInvalid);
  });

  it('answers a request without service or ticket with INVALID_PARAM in the sso envelope', async () => {
    for (const url of [paths.sso.serviceValidate, `${paths.sso.serviceValidate}?service=${SERVICE}`]) {
      const answer = await server.app.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error_code: ErrorCode.invalidParam });
    }
  });

  it('refuses a ticket whose session has ended since, and one whose account is frozen', async () => {
    const ended = await signedIn();
    const orphan = await ticketFor(ended.browser, SERVICE);
    await ended.browser.get('/sso/logout', SAME_ORIGIN);
    expect(await isSignedIn(ended.browser)).toBe(false);
    expect((await validate(SERVICE, orphan)).body.error_code).toBe(ErrorCode.ticketInvalid);

    const frozen = await signedIn();
    const ticket = await ticketFor(frozen.browser, SERVICE);
    await server.app.db.updateTable('users').set({ is_frozen: 1 }).where('id', '=', frozen.userId).execute();
    expect((await validate(SERVICE, ticket)).body.error_code).toBe(ErrorCode.accountFrozen);
  });
});

describe('GET /sso/logout', () => {
  it('ends the session and returns to next when it is a registered service', async () => {
    const { browser } = await signedIn();
    const next = `${SERVICE}/signed-out?x=1`;
    const answer = await browser.get(`/sso/logout?next=${encodeURIComponent(next)}`, SAME_ORIGIN);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(next);
    expect(await isSignedIn(browser)).toBe(false);
  });

  it.each([
    'https://evil.example.net/',
    '//evil.example.net/',
    'javascript:alert(1)',
    'https://svc.example.com.evil.net/',
    '',
  ])('sends the browser to / for next=%s, and still signs out', async (next) => {
    const { browser } = await signedIn();
    const answer = await browser.get(`/sso/logout?next=${encodeURIComponent(next)}`, SAME_ORIGIN);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/');
    expect(await isSignedIn(browser)).toBe(false);
  });

  it('asks first on a link from a registered service, and refuses one from a foreign page', async () => {
    const fromService = await signedIn();
    const asked = await fromService.browser.get(`/sso/logout?next=${encodeURIComponent(SERVICE)}`, {
      accept: HTML,
      'sec-fetch-site': 'cross-site',
      referer: `${SERVICE}/account`,
    });
    expect(asked.status).toBe(200);
    expect(asked.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(asked.raw.body).toContain(`action="${paths.sso.logout}"`);
    expect(asked.raw.body).toContain(`data-destination="${SERVICE}"`);
    expect(await isSignedIn(fromService.browser)).toBe(true);
    // The page's button: the POST logout with the CSRF header, as the SDK sends it.
    expect((await fromService.browser.post(paths.sso.logout, {})).body.error_code).toBe(0);
    expect(await isSignedIn(fromService.browser)).toBe(false);

    const fromForeign = await signedIn();
    const refused = await fromForeign.browser.get(`/sso/logout?next=${encodeURIComponent(SERVICE)}`, {
      accept: HTML,
      'sec-fetch-site': 'cross-site',
      referer: 'https://evil.example.net/',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: ErrorCode.csrfFailed });
    expect(await isSignedIn(fromForeign.browser)).toBe(true);
  });
});

describe('the sso app at /sso/', () => {
  it.each([
    ['/sso/sign-up', 200, SSO_INDEX],
    ['/sso/reset-password/', 200, SSO_INDEX],
    ['/SSO/Sign-Up', 200, SSO_INDEX],
    ['/sso/nope', 404, '404 Not Found\n'],
    ['/sso/assets/sso-abc.js', 200, 'console.log("sso");\n'],
    ['/workbench', 200, WEB_INDEX],
    ['/login', 200, WEB_INDEX],
  ])('answers a page load of %s with %i', async (url, status, body) => {
    const answer = await server.browser().get(url, { accept: HTML });
    expect(answer.status).toBe(status);
    expect(answer.raw.body).toBe(body);
  });
});

describe('SSO_HOST', () => {
  let hosted: TestServer;
  const SSO_HOST = 'sso.example.com';
  beforeAll(async () => {
    hosted = await startServer({
      apps: apps.map((app) => (app.name === 'sso' ? { ...app, host: SSO_HOST } : app)),
      ssoServices: [SERVICE],
    });
  });
  afterAll(async () => hosted?.close());

  it("serves the sso app at that host's root, and the web app elsewhere", async () => {
    const browser = hosted.browser();
    const cases: [string, Record<string, string>, number, string][] = [
      ['/sign-up', { host: SSO_HOST }, 200, SSO_INDEX],
      ['/sign-up', { host: `${SSO_HOST}:8443` }, 200, SSO_INDEX],
      ['/assets/sso-abc.js', { host: SSO_HOST }, 200, 'console.log("sso");\n'],
      ['/sso/assets/sso-abc.js', { host: SSO_HOST }, 200, 'console.log("sso");\n'],
      ['/workbench', { host: SSO_HOST }, 404, '404 Not Found\n'],
      [`/login?service=${encodeURIComponent(SERVICE)}`, { host: SSO_HOST }, 200, SSO_INDEX],
      ['/login', { host: 'passport.example.com' }, 200, WEB_INDEX],
      ['/sign-up', { host: 'passport.example.com' }, 404, '404 Not Found\n'],
    ];
    for (const [url, headers, status, body] of cases) {
      const answer = await browser.get(url, { accept: HTML, ...headers });
      expect(answer.status, `${headers.host}${url}`).toBe(status);
      expect(answer.raw.body, `${headers.host}${url}`).toBe(body);
    }
    const api = await browser.get('/passport/nope/', { accept: HTML, host: SSO_HOST });
    expect(api.status).toBe(404);
    expect(api.body.data.error_code).toBe(ErrorCode.notFound);
  });

  it('hands out tickets and signs out at /login and /logout of that host', async () => {
    const browser = hosted.browser();
    await signInBySms(hosted, browser);
    const answer = await browser.get(`/login?service=${encodeURIComponent(SERVICE)}`, {
      accept: HTML,
      host: SSO_HOST,
    });
    expect(answer.status).toBe(302);
    const ticket = new URL(String(answer.headers.location)).searchParams.get('ticket') ?? '';
    const checked = await hosted.app.inject({ method: 'GET', url: validateUrl(SERVICE, ticket) });
    expect(checked.json().error_code).toBe(0);
    const refused = await browser.get('/login?service=https%3A%2F%2Fevil.example.net%2F', {
      accept: HTML,
      host: SSO_HOST,
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.location).toBeUndefined();
    const out = await browser.get(`/logout?next=${encodeURIComponent(SERVICE)}`, {
      ...SAME_ORIGIN,
      host: SSO_HOST,
    });
    expect(out.headers.location).toBe(SERVICE);
    expect(await isSignedIn(browser)).toBe(false);
  });
});
