import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryRoute } from '../src/lib/route-inventory';
import { affiliatePaths, CSRF_HEADER, ErrorCode, LOG_ID_HEADER, paths } from '../src/protocol';
import { signInBySms } from './support/flows';
import {
  BODY_METHODS,
  concreteUrl,
  formEncode,
  isOAuthRoute,
  plausibleObject,
  plausibleQuery,
  schemaOf,
} from './support/inventory';
import { type Browser, freshMobile, startServer, type TestServer } from './support/server';

/**
 * SECURITY.md, headers: "CORS allow-list". Apps on another origin call the SDK's routes with
 * credentials (fetch with `credentials: 'include'`), so only PUBLIC_ORIGIN and ALLOWED_ORIGINS may read
 * an answer: they get `Access-Control-Allow-Origin` naming them and `Access-Control-Allow-Credentials`;
 * any other origin, `null` (a sandboxed frame, a file) and look-alikes of an allowed origin get
 * neither, so the browser hides the answer from their script. The walks read the route inventory, so
 * a route added tomorrow is held to this too.
 */

const PUBLIC_ORIGIN = 'http://localhost:3000';
const APP = 'https://app.example.com';
/** Origins that are not on the list: a foreign site, `null`, and spellings close to the allowed one. */
const FOREIGN = [
  'https://evil.example',
  'null',
  'https://app.example.com.evil.example',
  'https://evil-app.example.com',
  'http://app.example.com',
  'https://app.example.com:8443',
  'https://APP.example.com',
  'https://app.example.com/',
  'https://app.example.co',
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ publicOrigin: PUBLIC_ORIGIN, allowedOrigins: [APP] });
});
afterAll(async () => server?.close());

const label = (route: InventoryRoute) => `${route.method} ${route.url}`;
/**
 * Every route a client names, but the preflight catch-all: the SDK sends GET and POST, and a HEAD route
 * is its GET's twin, run by the same hooks.
 */
const walkable = () =>
  server.app.routeInventory.filter((r) => r.url !== '*' && r.method !== 'OPTIONS' && r.method !== 'HEAD');
const header = (answer: { headers: Record<string, unknown> }, name: string) =>
  answer.headers[name] === undefined ? undefined : String(answer.headers[name]);
const list = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim().toLowerCase());

/** A request a client could send to the route, from `origin` (the browser adds the header). */
function plausible(route: InventoryRoute, origin: string, browser?: Browser) {
  const headers: Record<string, string> = { origin };
  if (browser?.cookies.size)
    headers.cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const url = `${concreteUrl(route)}${plausibleQuery(route)}`;
  if (!BODY_METHODS.has(route.method)) return { method: route.method as 'GET', url, headers };
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return {
    method: route.method as 'POST',
    url,
    headers,
    payload: formEncode(plausibleObject(schemaOf(route, 'body'))),
  };
}

/** A browser's preflight before a credentialed call with the SDK's headers. */
const preflight = (url: string, origin: string, method: string) =>
  server.app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': `content-type,${CSRF_HEADER}`,
    },
  });

describe('CORS', () => {
  it('answers the preflight of an allow-listed origin on every route, with credentials and the SDK’s headers', async () => {
    const wrong: string[] = [];
    // The management API and SCIM are for a back end and an identity provider, with a key a page must
    // never hold: a browser is not offered their PUT, PATCH and DELETE (the other tests here still walk
    // them, refusing foreign origins).
    const routes = walkable().filter(
      (r) =>
        !(r.url.startsWith('/api/v1/') || r.url.startsWith('/scim/v2/')) ||
        ['GET', 'POST'].includes(r.method),
    );
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      for (const origin of [PUBLIC_ORIGIN, APP]) {
        const answer = await preflight(concreteUrl(route), origin, route.method);
        const seen = {
          status: answer.statusCode,
          origin: header(answer, 'access-control-allow-origin'),
          credentials: header(answer, 'access-control-allow-credentials'),
          methods: list(header(answer, 'access-control-allow-methods')).includes(route.method.toLowerCase()),
          headers: list(header(answer, 'access-control-allow-headers')).includes(CSRF_HEADER),
          vary: list(header(answer, 'vary')).includes('origin'),
        };
        const expected = {
          status: 204,
          origin,
          credentials: 'true',
          methods: true,
          headers: true,
          vary: true,
        };
        if (JSON.stringify(seen) !== JSON.stringify(expected))
          wrong.push(`${label(route)} from ${origin}: ${JSON.stringify(seen)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('gives no other origin, null or look-alike, a preflight on any route', async () => {
    const wrong: string[] = [];
    for (const route of walkable()) {
      for (const origin of ['https://evil.example', 'null']) {
        const answer = await preflight(concreteUrl(route), origin, route.method);
        if (
          answer.statusCode < 400 ||
          header(answer, 'access-control-allow-origin') !== undefined ||
          header(answer, 'access-control-allow-credentials') !== undefined
        )
          wrong.push(`${label(route)} from ${origin}: ${answer.statusCode}`);
      }
    }
    for (const origin of FOREIGN) {
      const answer = await preflight(paths.web.sendCode, origin, 'POST');
      expect(answer.statusCode, origin).toBe(404);
      expect(header(answer, 'access-control-allow-origin'), origin).toBeUndefined();
      expect(header(answer, 'access-control-allow-credentials'), origin).toBeUndefined();
    }
    expect(wrong).toEqual([]);
  });

  it('lets no foreign origin read an answer with credentials on any route; only the OpenID provider names one', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    const wrong: string[] = [];
    for (const route of walkable()) {
      const answer = await server.app.inject(plausible(route, 'https://evil.example', browser));
      const allowOrigin = header(answer, 'access-control-allow-origin');
      if (header(answer, 'access-control-allow-credentials') !== undefined)
        wrong.push(`${label(route)}: credentials allowed (${answer.statusCode})`);
      // oidc-provider answers its own CORS on its public documents and client-authenticated endpoints,
      // never with credentials (test/open-auth.test.ts); every other answer names no foreign origin.
      if (allowOrigin !== undefined && !isOAuthRoute(route.url) && !route.url.startsWith('/.well-known/'))
        wrong.push(`${label(route)}: Access-Control-Allow-Origin ${allowOrigin} (${answer.statusCode})`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers the SDK’s calls from the app’s origin with credentials, and the same calls from elsewhere unreadable', async () => {
    const app = server.browser();
    app.headers = { origin: APP };
    const { userId } = await signInBySms(server, app);
    const calls: [string, () => ReturnType<Browser['get']>][] = [
      ['account info', () => app.get(paths.web.accountInfo)],
      ['send a code', () => app.post(paths.web.sendCode, { mobile: freshMobile(), type: 24 })],
      ['organisation identities', () => app.get(affiliatePaths.identityList)],
      ['a 404', () => app.get('/passport/web/no_such_thing/')],
    ];
    for (const [name, call] of calls) {
      app.headers = { origin: APP };
      const allowed = await call();
      expect(header(allowed, 'access-control-allow-origin'), name).toBe(APP);
      expect(header(allowed, 'access-control-allow-credentials'), name).toBe('true');
      // The SDK reads the log id of every answer (spec: "Log id is taken from a response header").
      expect(list(header(allowed, 'access-control-expose-headers')), name).toContain(LOG_ID_HEADER);
      expect(list(header(allowed, 'vary')), name).toContain('origin');
      for (const origin of FOREIGN) {
        app.headers = { origin };
        const refused = await call();
        expect(header(refused, 'access-control-allow-origin'), `${name} from ${origin}`).toBeUndefined();
        expect(header(refused, 'access-control-allow-credentials'), `${name} from ${origin}`).toBeUndefined();
        // A cache between must not hand the allowed answer to another origin.
        expect(list(header(refused, 'vary')), `${name} from ${origin}`).toContain('origin');
      }
    }
    // The app's credentialed call is answered for its session; a foreign one is refused outright.
    app.headers = { origin: APP };
    expect((await app.get(paths.web.accountInfo)).body.data.user_id).toBe(userId);
    app.headers = { origin: 'https://evil.example' };
    const forged = await app.post(paths.web.sendCode, { mobile: freshMobile(), type: 24 });
    expect(forged.status).toBe(403);
    expect(forged.body.data.error_code).toBe(ErrorCode.originNotAllowed);
  });

  it('allows only GET and POST and the SDK’s own request headers', async () => {
    const answer = await server.app.inject({
      method: 'OPTIONS',
      url: paths.web.accountInfo,
      headers: {
        origin: APP,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'x-user-id,authorization',
      },
    });
    expect(list(header(answer, 'access-control-allow-methods')).sort()).toEqual(['get', 'post']);
    const allowed = list(header(answer, 'access-control-allow-headers'));
    expect(allowed).toContain(CSRF_HEADER);
    expect(allowed).not.toContain('x-user-id');
    expect(allowed).not.toContain('authorization');
  });
});
