import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/protocol';
import { startServer, type TestServer } from './support/server';

/**
 * The web app served by the passport server (src/routes/site): the build's files with their caching,
 * index.html for the paths of the build's route list (dist/routes.json), a plain-text 404 for other page
 * loads, and the API's JSON 404 envelopes unchanged. A small fake build stands in for apps/web/dist, so
 * the test runs without it (test/sso-tickets.test.ts covers several apps and SSO_HOST).
 */

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

/** The fake build's route list, in the shape an app's build writes it (@portico/app-routes). */
const WEB_ROUTES = [
  '/',
  '/community',
  '/extension',
  '/home',
  '/legal/open-source-notice',
  '/login',
  '/privacy-policy/:id?',
  '/reset-password',
  '/sign-up',
  '/terms-of-service/:id?',
  '/workbench',
  '/authorization',
];

let dist: string;
let server: TestServer;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'portico-web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets/index-abc123.js'), 'console.log("portico");\n'.repeat(100));
  writeFileSync(join(dist, 'open-source-notice.json'), '[]');
  writeFileSync(join(dist, '.secret'), 'nope');
  writeFileSync(join(dist, 'routes.json'), JSON.stringify({ routes: WEB_ROUTES }));
  server = await startServer({ apps: [{ name: 'web', mount: '/', dist }] });
});
afterAll(async () => {
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, accept?: string) =>
  server.app.inject({ method: 'GET', url, headers: accept ? { accept } : {} });

describe('the web app', () => {
  it.each([
    '/',
    '/home',
    '/community',
    '/extension',
    '/workbench',
    '/login',
    '/login/',
    '/LOGIN',
    '/sign-up',
    '/reset-password',
    '/legal/open-source-notice',
    '/privacy-policy',
    '/privacy-policy/2026-11-22',
    '/terms-of-service',
    '/terms-of-service/v9',
    '/login?next=/workbench',
    // Open authorization's consent page: never framed (a framed Approve button is clickjacking).
    '/authorization?interaction=abc123',
  ])('answers a page load of %s with index.html, revalidated on every visit', async (url) => {
    const answer = await get(url, HTML);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toBe(INDEX);
    expect(answer.headers['cache-control']).toBe('no-cache');
    // The security headers of every response stay: the sign-in pages cannot be framed.
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-tt-logid']).toBeTruthy();
  });

  it('answers curl (Accept: */*) for an app route with index.html too', async () => {
    const answer = await get('/login', '*/*');
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(INDEX);
  });

  it.each([
    '/nope',
    '/nope.txt',
    '/login/extra',
    '/privacy-policy/1/2',
    '/authorization/extra',
    '/.env',
    '/.git/config',
  ])('answers a page load of the unmatched non-app path %s with a plain-text 404', async (url) => {
    const answer = await get(url, HTML);
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.body).toBe('404 Not Found\n');
  });

  it.each([
    '/passport/web/no_such_thing/',
    '/PASSPORT/WEB/SEND_CODE/',
    '/vc/nothing',
    '/dev/nothing',
    '/docs/nothing.json',
    '/web/user/nothing/',
    '/user/web/download/nothing',
    '/CheckLogin/extra',
    '/quick_login/extra',
  ])('keeps the JSON 404 envelope for the API path %s, even for a page load', async (url) => {
    const answer = await get(url, HTML);
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body).data.error_code).toBe(ErrorCode.notFound);
  });

  it('keeps the JSON 404 envelope for clients that do not ask for a page, and for other methods', async () => {
    for (const answer of [
      await get('/login'),
      await get('/nope', 'application/json'),
      await server.app.inject({ method: 'POST', url: '/login', headers: { accept: HTML } }),
      await server.app.inject({ method: 'DELETE', url: '/', headers: { accept: HTML } }),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(JSON.parse(answer.body).data.error_code).toBe(ErrorCode.notFound);
    }
  });

  it('serves hashed assets for a year, immutable, and other build files revalidated', async () => {
    const asset = await get('/assets/index-abc123.js', '*/*');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toContain('console.log("portico")');
    expect(asset.headers.etag).toBeTruthy();

    const notice = await get('/open-source-notice.json');
    expect(notice.statusCode).toBe(200);
    expect(notice.headers['cache-control']).toBe('no-cache');
    expect(notice.body).toBe('[]');
  });

  it('sends the precompressed file to a browser that accepts brotli', async () => {
    writeFileSync(join(dist, 'assets/index-abc123.js.br'), 'brotli bytes');
    const answer = await server.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.body).toBe('brotli bytes');
    rmSync(join(dist, 'assets/index-abc123.js.br'));
  });

  it('never serves dotfiles or anything outside the build', async () => {
    for (const url of [
      '/.secret',
      '/assets/../../etc/passwd',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/%2e%2e/x',
    ]) {
      const answer = await get(url, HTML);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.body, url).not.toContain('nope');
    }
  });

  it('answers a 404 for a missing hashed asset (the app is newer than the page)', async () => {
    const answer = await get('/assets/index-gone.js', '*/*');
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('without a build of the web app', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startServer({
      apps: [{ name: 'web', mount: '/', dist: join(tmpdir(), 'portico-no-such-dist') }],
    });
  });
  afterAll(async () => bare?.close());

  it('still starts, says how to build the app on its pages, and keeps the API', async () => {
    // The route list comes with the build: without one, every page load says how to build the app.
    for (const url of ['/login', '/nope']) {
      const page = await bare.app.inject({ method: 'GET', url, headers: { accept: HTML } });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/plain/);
      expect(page.body).toContain('pnpm --filter @portico/web build');
    }
    const json = await bare.app.inject({
      method: 'GET',
      url: '/nope',
      headers: { accept: 'application/json' },
    });
    expect(json.statusCode).toBe(404);
    const api = await bare.browser().get('/passport/web/account/info/');
    expect(api.status).toBe(200);
  });
});
