import { randomUUID } from 'node:crypto';
import {
  API_SCOPES,
  MANAGEMENT_BASE_PATH,
  MANAGEMENT_CALLS,
  WEBHOOK_CALLS,
} from '@portico/management/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailMessage, SmsMessage } from '../src/delivery/providers';
import { newApiKey } from '../src/domain/api-keys/api-keys';
import type { InventoryRoute } from '../src/lib/route-inventory';
import { CodeType, CSRF_COOKIE, CSRF_HEADER, ErrorCode, enterpriseSsoPaths, paths } from '../src/protocol';
import { SCIM_BASE_PATH, SCIM_CALLS } from '../src/routes/scim/index';
import {
  BODY_METHODS,
  concreteUrl,
  countsOf,
  dataSchemaOf,
  envelopeProblem,
  errorCodeOf,
  formEncode,
  isNonEnvelopeRoute,
  isPublicDocument,
  isStateChanging,
  isStateChangingGet,
  looseness,
  NO_DATA_SCHEMA_ALLOWED,
  NO_INPUT_SCHEMA_ALLOWED,
  plausibleObject,
  plausibleQuery,
  schemaOf,
  snapshotState,
} from './support/inventory';
import { type Browser, codeFor, freshMobile, startServer } from './support/server';

/**
 * SECURITY.md: "a route inventory taken from Fastify's onRoute hook drives the CSRF, authorization and
 * bad-input tests, so a new route that nobody tested fails CI". Nothing here names a route: every case
 * is derived from each registered route's method, URL and schema, with the dev outbox on and off.
 */

const ALLOWED_ORIGIN = 'https://app.example.com';

/**
 * State-changing routes that opt out of the CSRF token with `config: { csrf: false }`: each needs a
 * reason here (server-to-server endpoints such as an OAuth token endpoint). An opt-out that
 * is not listed fails the CSRF test.
 */
const CSRF_EXEMPT: readonly { method: string; url: string; why: string }[] = [
  ...[paths.monitor.monitorBatch, paths.monitor.monitorEventList].map((url) => ({
    method: 'POST',
    url,
    why: 'the monitoring collector (docs/monitoring.md): sendBeacon posts without a token or credentials; it reads no cookie, acts for nobody and writes only anonymous, schema-checked, size-capped and per-address-limited events, so a forged batch is a batch',
  })),
  {
    method: 'POST',
    url: '/oauth/*',
    why: 'the OpenID provider: token, revocation, introspection and registration authenticate the client (secret or initial access token), not a browser session; the authorization endpoint and its resume are bound by the provider’s own signed cookies and PKCE',
  },
  {
    method: 'POST',
    url: '/passport/open/oauth/token/',
    why: 'the spec’s token path of the open family, handed to the provider’s token endpoint: client-authenticated',
  },
  {
    method: 'POST',
    url: paths.open.authToken,
    why: 'the authorization an access token carries (docs/open-authorization.md): the bearer token in the body is the credential; it reads no cookie, acts for nobody and changes nothing',
  },
  {
    method: 'POST',
    url: enterpriseSsoPaths.samlAcs,
    why: 'the SAML assertion consumer service (docs/enterprise-sso.md): the identity provider’s page posts here from its own site, so no cookie or token comes along; it reads no session, signs nobody in and only keeps the response once for the callback page, whose call is CSRF-checked and bound to the browser',
  },
  ...[...Object.values(MANAGEMENT_CALLS), ...Object.values(WEBHOOK_CALLS)]
    .filter((call) => call.method !== 'GET')
    .map((call) => ({
      method: call.method,
      url: `${MANAGEMENT_BASE_PATH}${call.path}`,
      why: 'the management API (docs/management-api.md): a back end authenticates with an API key in the Authorization header, which a browser never adds on its own; cookies mean nothing there',
    })),
  ...SCIM_CALLS.filter((call) => call.method !== 'GET').map((call) => ({
    method: call.method,
    url: `${SCIM_BASE_PATH}${call.path}`,
    why: 'SCIM (docs/scim.md): the identity provider authenticates with an organisation’s API key in the Authorization header; cookies mean nothing there',
  })),
];

/** The routes whose caller is an API key in the Authorization header: the management API and SCIM. */
const keyed = (url: string) => url.startsWith(MANAGEMENT_BASE_PATH) || url.startsWith(SCIM_BASE_PATH);

/**
 * Each setup's server is started while the file is collected, so that its route list is known then and
 * every route becomes a test of its own: a test's work is bounded by one route, whatever the number of
 * routes, and a slow machine cannot push a walk over all of them past the per-test timeout.
 */
async function boot(name: string, devOutbox: 'auto' | 'off') {
  const messages: (SmsMessage | MailMessage)[] = [];
  const recorder = { name: 'recorder', send: async (m: SmsMessage | MailMessage) => void messages.push(m) };
  const server = await startServer(
    { allowedOrigins: [ALLOWED_ORIGIN], devOutbox },
    devOutbox === 'off' ? { sms: recorder, mail: recorder } : {},
  );
  return { name, devOutbox, server, messages, routes: server.app.routeInventory };
}

const setups = [
  await boot('dev outbox on', 'auto'),
  // Without the outbox its routes vanish; messages go to recording providers instead.
  await boot('dev outbox off', 'off'),
];

/** `GET /path`: the test name of a route. */
const label = (route: InventoryRoute) => `${route.method} ${route.url}`;
/** Every route a client can name (not the site's catch-all). */
const walkable = (routes: readonly InventoryRoute[]) => routes.filter((r) => r.url !== '*');

describe.each(setups)('the route inventory ($name)', ({ devOutbox, server, messages, routes }) => {
  const problems: string[] = [];

  afterAll(async () => server.close());
  beforeEach(() => {
    problems.length = 0;
  });

  const state = () => snapshotState(server.app, () => messages.length);
  /** Messages handed out so far: the dev outbox's rows plus the recording providers'. */
  async function deliveries(): Promise<number> {
    const outbox = await server.app.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(outbox.count) + messages.length;
  }

  /** A client address per browser, so per-address caps never couple the cases. */
  const addresses = new WeakMap<Browser, string>();
  let nextAddress = 0;
  function addressOf(browser: Browser): string {
    let address = addresses.get(browser);
    if (!address) {
      nextAddress += 1;
      address = `10.${devOutbox === 'off' ? 99 : 98}.${(nextAddress >> 8) & 255}.${nextAddress & 255 || 1}`;
      addresses.set(browser, address);
    }
    return address;
  }

  /** Injects one request with the browser's cookies and address; checks the envelope of every answer. */
  async function send(
    browser: Browser,
    request: {
      method: string;
      url: string;
      /** The CSRF header: the browser's token by default, null for none. */
      token?: string | null;
      headers?: Record<string, string>;
      payload?: string;
      contentType?: string;
    },
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {};
    if (browser.cookies.size) headers.cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const token = request.token === undefined ? browser.cookies.get(CSRF_COOKIE) : request.token;
    if (token != null && request.method !== 'GET' && request.method !== 'HEAD') headers[CSRF_HEADER] = token;
    if (request.payload !== undefined)
      headers['content-type'] = request.contentType ?? 'application/x-www-form-urlencoded';
    Object.assign(headers, request.headers);
    const response = await server.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers,
      remoteAddress: addressOf(browser),
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
    const problem = envelopeProblem(response, {
      method: request.method,
      envelopeOptional: isNonEnvelopeRoute(request.url, request.method),
    });
    if (problem) problems.push(`${request.method} ${request.url}: ${problem}`);
    return response;
  }

  /** A browser that has loaded a page (it holds a pre-session and its CSRF cookie). */
  async function visitor(): Promise<Browser> {
    const browser = server.browser();
    await browser.get(paths.web.accountInfo);
    return browser;
  }

  async function lastCode(to: string): Promise<string> {
    if (devOutbox !== 'off') return codeFor(server.app, to);
    const text = [...messages].reverse().find((m) => m.to === to)?.text ?? '';
    const code = text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code was sent to ${to}`);
    return code;
  }

  /** A signed-in browser (SMS code login, the one flow every deployment has). */
  /** A management API key with every scope, made once (src/domain/api-keys). */
  let everyScope: string | undefined;
  async function apiKey(): Promise<string> {
    if (everyScope) return everyScope;
    const { key, prefix, secretHash } = newApiKey(server.app.secret);
    await server.app.db
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        name: 'inventory',
        prefix,
        secret_hash: secretHash,
        scopes: JSON.stringify(API_SCOPES),
        created_by: 'inventory',
        created_at: Date.now(),
        expires_at: null,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    everyScope = key;
    return key;
  }

  async function signedIn(): Promise<Browser> {
    const browser = await visitor();
    const mobile = freshMobile();
    await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    const login = await browser.post(paths.web.smsLogin, { mobile, code: await lastCode(mobile) });
    expect(login.body.message, 'fixture: SMS sign-in').toBe('success');
    return browser;
  }

  /** A request a real client could send to the route: schema-derived body and query, fresh targets. */
  function plausible(route: InventoryRoute) {
    const url = `${concreteUrl(route)}${plausibleQuery(route)}`;
    if (!BODY_METHODS.has(route.method)) return { method: route.method, url };
    return { method: route.method, url, payload: formEncode(plausibleObject(schemaOf(route, 'body'))) };
  }

  it('holds routes, including every web sign-in route and the outbox only when it is on', () => {
    const urls = routes.map((r) => r.url);
    expect(urls).toEqual(expect.arrayContaining([paths.web.sendCode, paths.web.accountInfo]));
    expect(urls.some((u) => u.startsWith('/dev/outbox'))).toBe(devOutbox !== 'off');
  });

  it('has a schema for the input of every route (outside a short, commented allow-list)', () => {
    const missing: string[] = [];
    for (const route of routes) {
      const allowed = NO_INPUT_SCHEMA_ALLOWED.some(
        (a) =>
          (typeof a.method === 'string' ? a.method === route.method : a.method.test(route.method)) &&
          a.url.test(route.url),
      );
      if (allowed) continue;
      // The management API's DELETE takes no body (its input is the path and the query, as HTTP means a
      // DELETE): a bare DELETE from any client must not be refused for a missing JSON body.
      const bodyless =
        route.method === 'DELETE' &&
        (route.url.startsWith('/api/v1/') || route.url.startsWith(`${SCIM_BASE_PATH}/`));
      if (BODY_METHODS.has(route.method) && !bodyless && !schemaOf(route, 'body'))
        missing.push(`${label(route)}: body`);
      // Every SDK call carries the common query parameters, so every route declares its querystring.
      if (!schemaOf(route, 'querystring')) missing.push(`${label(route)}: querystring`);
      if (/[:*]/.test(route.url) && !schemaOf(route, 'params')) missing.push(`${label(route)}: params`);
    }
    expect(missing).toEqual([]);
  });

  // Ajv coerces a query's "1e400" to Infinity and then skips range keywords for a non-finite number
  // (src/app.ts): only a finite minimum and maximum on every number keeps such a value out.
  it('declares the success data of every JSON route (outside a short, commented allow-list)', () => {
    // test/support/server.ts checks every answer against it (src/http/response-check.ts).
    const undeclared: string[] = [];
    for (const route of routes) {
      const allowed = NO_DATA_SCHEMA_ALLOWED.some(
        (a) =>
          (typeof a.method === 'string' ? a.method === route.method : a.method.test(route.method)) &&
          a.url.test(route.url),
      );
      if (allowed) continue;
      const loose = looseness(dataSchemaOf(route));
      if (loose) undeclared.push(`${label(route)}: ${loose}`);
    }
    expect(undeclared).toEqual([]);
  });

  it('bounds every number of every route input, so a coerced Infinity is refused', () => {
    const unbounded: string[] = [];
    const walk = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      const types = ([] as unknown[]).concat(s.type ?? []);
      if ((types.includes('integer') || types.includes('number')) && !('const' in s) && !('enum' in s)) {
        if (!Number.isFinite(s.minimum) && !Number.isFinite(s.exclusiveMinimum))
          unbounded.push(`${where}: minimum`);
        if (!Number.isFinite(s.maximum) && !Number.isFinite(s.exclusiveMaximum))
          unbounded.push(`${where}: maximum`);
      }
      for (const [key, value] of Object.entries(s)) {
        if (key === 'properties' && value && typeof value === 'object')
          for (const [name, sub] of Object.entries(value)) walk(sub, `${where}.${name}`);
        else if (key !== 'properties' && typeof value === 'object') walk(value, `${where}/${key}`);
      }
    };
    for (const route of routes)
      for (const part of ['body', 'querystring', 'params'] as const)
        walk(schemaOf(route, part), `${label(route)} ${part}`);
    expect(unbounded).toEqual([]);
  });

  it('refuses a query number that coerces to Infinity (1e400) with a 4xx envelope, signed in', async () => {
    const browser = await signedIn();
    const numeric = (route: InventoryRoute) =>
      Object.entries(schemaOf(route, 'querystring')?.properties ?? {})
        .filter(([, p]) => p.type === 'integer' || p.type === 'number')
        .map(([name]) => name);
    const cases = walkable(routes).filter((r) => r.method === 'GET' && numeric(r).length > 0);
    expect(cases.length, 'routes with a number in the query (the paged lists)').toBeGreaterThan(3);
    const answers: string[] = [];
    for (const route of cases) {
      const query = new URLSearchParams(plausibleQuery(route).slice(1));
      for (const name of numeric(route)) query.set(name, '1e400');
      // The management API's caller is an API key, not the session: it checks the key before the input.
      const headers: Record<string, string> = keyed(route.url)
        ? { authorization: `Bearer ${await apiKey()}` }
        : {};
      const response = await send(browser, { method: 'GET', url: `${concreteUrl(route)}?${query}`, headers });
      if (response.statusCode !== 400) answers.push(`${label(route)}: ${response.statusCode}`);
    }
    expect(answers).toEqual([]);
    expect(problems).toEqual([]);
  });

  describe('refuses every forged state-changing request, without changing any state', () => {
    const targets = routes.filter(isStateChanging);
    let anonymous: Browser;
    let member: Browser;
    let plantedToken: string;
    beforeAll(async () => {
      anonymous = await visitor();
      member = await signedIn();
      // A sibling subdomain can plant cookies for the parent domain: its own valid token, in the cookie
      // and in the header. The token is bound to the attacker's pre-session, not to the victim's.
      const attacker = await visitor();
      plantedToken = attacker.cookies.get(CSRF_COOKIE) ?? '';
    });

    it('has state-changing routes to walk', () => {
      expect(targets.length).toBeGreaterThan(0);
    });

    it.for(targets.map((route) => [label(route), route] as const))('%s', async ([, route]) => {
      const refusals: string[] = [];
      const exempt = route.config?.csrf === false;
      if (exempt && !CSRF_EXEMPT.some((e) => e.method === route.method && e.url === route.url))
        refusals.push(`${label(route)} opts out of CSRF without an entry in CSRF_EXEMPT`);
      for (const victim of [anonymous, member]) {
        const before = await state();
        const base = plausible(route);
        const planted = server.browser();
        addresses.set(planted, addressOf(victim));
        for (const [name, value] of victim.cookies) planted.cookies.set(name, value);
        planted.cookies.set(CSRF_COOKIE, plantedToken);

        const forged: [string, Browser, Parameters<typeof send>[1], number | null][] = [
          ['no CSRF header', victim, { ...base, token: null }, ErrorCode.csrfFailed],
          ['a wrong CSRF header', victim, { ...base, token: 'A'.repeat(43) }, ErrorCode.csrfFailed],
          ['an empty CSRF header', victim, { ...base, token: '' }, ErrorCode.csrfFailed],
          ['a cookie and header planted by a sibling subdomain', planted, base, ErrorCode.csrfFailed],
          [
            'a cross-site Origin',
            victim,
            { ...base, headers: { origin: 'https://evil.example.net' } },
            ErrorCode.originNotAllowed,
          ],
          ['Origin: null', victim, { ...base, headers: { origin: 'null' } }, ErrorCode.originNotAllowed],
          [
            'Sec-Fetch-Site: cross-site',
            victim,
            { ...base, headers: { 'sec-fetch-site': 'cross-site' } },
            ErrorCode.csrfFailed,
          ],
          // fastify CVE-2022-41919: a cross-site form may post text/plain without a preflight, and a
          // JSON or form type hidden in its parameters once selected that parser. With a valid token too.
          ['a text/plain body', victim, { ...base, contentType: 'text/plain' }, null],
          [
            'text/plain naming JSON in a parameter',
            victim,
            { ...base, contentType: 'text/plain; charset=application/json', payload: '{"a":1}' },
            null,
          ],
          [
            'text/plain naming a form in a parameter',
            victim,
            { ...base, contentType: 'text/plain; x=application/x-www-form-urlencoded' },
            null,
          ],
          ['multipart/form-data', victim, { ...base, contentType: 'multipart/form-data; boundary=x' }, null],
          [
            'a text/plain body without a token',
            victim,
            { ...base, contentType: 'text/plain', token: null },
            null,
          ],
        ];
        for (const [name, browser, request, code] of forged) {
          if (exempt && code !== null) continue;
          if (request.payload === undefined && request.contentType) request.payload = 'a=1';
          const response = await send(browser, request);
          const who = victim === member ? 'signed in' : 'anonymous';
          if (code !== null && (response.statusCode !== 403 || errorCodeOf(response) !== code)) {
            refusals.push(
              `${label(route)} (${who}), ${name}: ${response.statusCode} ${response.body.slice(0, 120)}`,
            );
          }
          if (code === null && (response.statusCode < 400 || response.statusCode >= 500)) {
            refusals.push(
              `${label(route)} (${who}), ${name}: ${response.statusCode} ${response.body.slice(0, 120)}`,
            );
          }
        }
        const after = await state();
        expect(
          after,
          `${label(route)}: forged requests changed state (${JSON.stringify(countsOf(after))})`,
        ).toEqual(before);
      }
      expect(refusals).toEqual([]);
      expect(problems).toEqual([]);

      // The control: the same request with a good token from the browser's own session gets past CSRF,
      // so the refusals above were the CSRF check's and not some other failure's.
      const response = await send(await visitor(), plausible(route));
      expect(errorCodeOf(response), `${label(route)} with a good token`).not.toBe(ErrorCode.csrfFailed);
    });
  });

  describe('changes no state on any GET or HEAD route, anonymous or signed in', () => {
    const safe = walkable(routes).filter((r) => !isStateChanging(r));
    let anonymous: Browser;
    let member: Browser;
    beforeAll(async () => {
      anonymous = await visitor();
      member = await signedIn();
    });

    it('has safe routes to walk', () => {
      expect(safe.length).toBeGreaterThan(0);
    });

    it.for(safe.map((route) => [label(route), route] as const))('%s', async ([, route]) => {
      // One call first: server-wide lazy set-up on first use (the first signing key behind the JWKS) is
      // not a request changing state. The measured pass below uses fresh input again.
      if (!isStateChangingGet(route.url)) await send(anonymous, plausible(route));
      const before = await state();
      for (const browser of [anonymous, member]) {
        if (browser === member && isStateChangingGet(route.url)) continue;
        await send(browser, plausible(route));
        await send(browser, { method: route.method, url: concreteUrl(route) });
      }
      const after = await state();
      expect(after, JSON.stringify(countsOf(after))).toEqual(before);
      expect(problems).toEqual([]);
      // The member is still signed in: no GET logged it out.
      const info = await send(member, { method: 'GET', url: paths.web.accountInfo });
      expect(errorCodeOf(info)).toBe(0);
    });
  });

  describe('refuses a cross-site navigation to a state-changing GET (logout) and keeps the session', () => {
    const gets = routes.filter((r) => r.method === 'GET' && isStateChangingGet(r.url));

    it('has state-changing GET routes to walk', () => {
      expect(gets.length).toBeGreaterThan(0);
    });

    it.for(gets.map((route) => [label(route), route] as const))('%s', async ([, route]) => {
      const member = await signedIn();
      const before = await state();
      const forged = await send(member, {
        method: 'GET',
        url: `${concreteUrl(route)}?not_redirect=1`,
        headers: { 'sec-fetch-site': 'cross-site', referer: 'https://evil.example.net/' },
      });
      expect(forged.statusCode, label(route)).toBe(403);
      expect(errorCodeOf(forged)).toBe(ErrorCode.csrfFailed);
      expect(await state()).toEqual(before);
      expect(errorCodeOf(await send(member, { method: 'GET', url: paths.web.accountInfo }))).toBe(0);
    });
  });

  describe('sends x-tt-logid and nosniff on every response, and no-store on every auth response', () => {
    let member: Browser;
    beforeAll(async () => {
      member = await signedIn();
    });

    it.for(walkable(routes).map((route) => [label(route), route] as const))('%s', async ([, route]) => {
      const browser = isStateChangingGet(route.url) ? await visitor() : member;
      for (const request of [
        plausible(route),
        { ...plausible(route), token: null },
        { method: route.method, url: `${concreteUrl(route)}?aid[]=x&language=${'x'.repeat(100)}` },
      ]) {
        const response = await send(browser, request);
        expect(response.headers['x-tt-logid'], label(route)).toMatch(/^[0-9A-Z]{20,}$/);
        expect(response.headers['x-content-type-options'], label(route)).toBe('nosniff');
        // Public documents (OpenAPI, JWKS) may be cached; everything else is an auth response.
        if (!isPublicDocument(route.url))
          expect(response.headers['cache-control'], label(route)).toBe('no-store');
      }
      expect(problems).toEqual([]);
    });
  });

  /** `//path`, the other trailing slash, upper case, an inner slash as %2F, a doubled inner slash. */
  function pathVariants(url: string): string[] {
    const variants = new Set<string>([
      `/${url}`,
      url.endsWith('/') ? url.slice(0, -1) : `${url}/`,
      url.toUpperCase(),
      url.replace(/^(\/[^/]+)\//, '$1%2F'),
      url.replace(/\/([^/]+)\/?$/, '%2F$1/'),
      url.replace(/^(\/[^/]+)\//, '$1//'),
      `${url}%2F`,
      url.replace(/^\//, '/./'),
      url.replace(/^(\/[^/]+)\//, '$1/x/../'),
    ]);
    variants.delete(url);
    return [...variants];
  }

  describe('answers path variants of every route with that route or a 404 envelope, never a 5xx', () => {
    let member: Browser;
    beforeAll(async () => {
      member = await signedIn();
    });

    it.for(walkable(routes).map((route) => [label(route), route] as const))('%s', async ([, route]) => {
      const mismatches: string[] = [];
      // Safe routes answer a signed-in browser; anything that could end its session gets its own, and so
      // does each management call (its address's budget of calls without a key is per minute).
      const browser =
        isStateChanging(route) || isStateChangingGet(route.url) || keyed(route.url)
          ? await visitor()
          : member;
      const canonical = await send(browser, plausible(route));
      for (const variant of pathVariants(concreteUrl(route))) {
        const query = plausibleQuery(route);
        const request = { ...plausible(route), url: `${variant}${query}` };
        const response = await send(browser, request);
        if (response.statusCode === 404) {
          if (route.method !== 'HEAD' && errorCodeOf(response) !== ErrorCode.notFound)
            mismatches.push(`${route.method} ${variant}: 404 without NOT_FOUND`);
          continue;
        }
        // Reaching a safe route must give the same answer as the canonical path.
        if (!isStateChanging(route) && !isStateChangingGet(route.url)) {
          const same =
            response.statusCode === canonical.statusCode &&
            (route.method === 'HEAD' ||
              isNonEnvelopeRoute(route.url, route.method) ||
              errorCodeOf(response) === errorCodeOf(canonical));
          if (!same)
            mismatches.push(
              `${route.method} ${variant}: ${response.statusCode}/${errorCodeOf(response)} where ${route.url} answers ${canonical.statusCode}/${errorCodeOf(canonical)}`,
            );
        }
      }
      expect(mismatches).toEqual([]);
      expect(problems).toEqual([]);
    });
  });

  describe('keeps every code-sending route on cooldown through path variants, other addresses and target spellings', () => {
    const posts = walkable(routes).filter((r) => r.method === 'POST');
    /** Routes whose plausible request sent a code; the last test checks there was at least one. */
    const senders: string[] = [];

    it.for(posts.map((route) => [label(route), route] as const))('%s', async ([, route]) => {
      const body = plausibleObject(schemaOf(route, 'body'));
      const before = await deliveries();
      const first = await send(await visitor(), { ...plausible(route), payload: formEncode(body) });
      if ((await deliveries()) === before) return;
      senders.push(label(route));
      expect(errorCodeOf(first), label(route)).toBe(0);

      const spellings: Record<string, unknown>[] = [];
      if (typeof body.mobile === 'string' && body.mobile.startsWith('+86')) {
        const national = body.mobile.slice(3);
        spellings.push(
          { ...body, mobile: national },
          { ...body, mobile: `+86 ${national.slice(0, 3)} ${national.slice(3, 7)} ${national.slice(7)}` },
          { ...body, mobile: `(+86)${national.slice(0, 3)}-${national.slice(3)}` },
          { ...body, mobile: ` ${body.mobile} ` },
          { ...body, mobile: `0086${national}` },
          { ...body, mobile: body.mobile.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d))) },
        );
      }
      if (typeof body.email === 'string') {
        spellings.push(
          { ...body, email: body.email.toUpperCase() },
          { ...body, email: ` ${body.email} ` },
          { ...body, email: body.email.replace(/@.*$/, (domain) => domain.toUpperCase()) },
        );
      }
      const attempts = [
        ...pathVariants(route.url).map((url) => ({ what: `path ${url}`, url, body })),
        ...spellings.map((b) => ({
          what: `target ${JSON.stringify(b.mobile ?? b.email)}`,
          url: route.url,
          body: b,
        })),
      ];
      for (const attempt of attempts) {
        const count = await deliveries();
        // A fresh browser each time: another address, another pre-session.
        const response = await send(await visitor(), {
          method: 'POST',
          url: `${attempt.url}${plausibleQuery(route)}`,
          payload: formEncode(attempt.body),
        });
        expect((await deliveries()) - count, `${label(route)} ${attempt.what} sent another code`).toBe(0);
        expect(errorCodeOf(response), `${label(route)} ${attempt.what}`).not.toBe(0);
      }
      expect(problems).toEqual([]);
    });

    it('found a code-sending route (the plausible input still fits them)', () => {
      expect(senders.length, 'no route sent a code: the plausible input no longer fits').toBeGreaterThan(0);
    });
  });
});
