import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql, type TableMetadata } from 'kysely';
import type { InventoryRoute } from '../../src/lib/route-inventory';
import { failureOf } from '../../src/protocol';
import { freshEmail, freshMobile } from './server';

/**
 * Helpers for the tests that walk the route inventory (test/inventory.test.ts, test/fuzz.test.ts):
 * which routes exist, plausible input for each derived from its schema, a snapshot of server state,
 * and the envelope every answer must carry.
 */

/** The parts of a JSON Schema (TypeBox emits plain JSON Schema) the generators read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: JsonSchema;
  default?: unknown;
}

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isStateChanging = (route: InventoryRoute) => !SAFE_METHODS.has(route.method);

/**
 * Routes that take no input of their own, or whose input is a file path served by a library: they
 * need no querystring schema. Anything else without one fails the inventory test.
 */
export const NO_INPUT_SCHEMA_ALLOWED: readonly { method: string | RegExp; url: RegExp; why: string }[] = [
  { method: 'OPTIONS', url: /^\*$/, why: 'the CORS preflight catch-all of @fastify/cors' },
  {
    method: /^(GET|HEAD)$/,
    url: /^\/docs(\/|$)/,
    why: 'the OpenAPI document and the swagger UI static files of @fastify/swagger-ui',
  },
  { method: /^(GET|HEAD)$/, url: /^\/\.well-known\//, why: 'standard documents (JWKS) that read no input' },
  {
    method: /^(GET|HEAD|POST)$/,
    url: /^(\/oauth\/\*|\/passport\/open\/oauth\/token\/)$/,
    why: 'the OpenID provider (oidc-provider) mounted for open authorization: it parses and validates its own input per RFC 6749/7591/7662/7009',
  },
];

/**
 * Routes whose success is not JSON data the server shapes: they declare no success data, and the
 * response check (src/http/response-check.ts) has nothing to hold them to. Anything else without a
 * declared data schema, or with one that names no field, fails the inventory test.
 */
export const NO_DATA_SCHEMA_ALLOWED: readonly { method: string | RegExp; url: RegExp; why: string }[] = [
  { method: 'OPTIONS', url: /^\*$/, why: 'the CORS preflight catch-all of @fastify/cors: no body' },
  { method: 'HEAD', url: /./, why: 'a HEAD answers no body; its GET declares the data' },
  {
    method: /^(GET|HEAD)$/,
    url: /^\/docs(\/|$)/,
    why: 'the OpenAPI document (generated from the schemas themselves) and the swagger UI files',
  },
  {
    method: /^(GET|HEAD)$/,
    url: /^\/\.well-known\/(openid-configuration|oauth-authorization-server)/,
    why: 'the OpenID provider’s discovery documents (RFC 8414, OpenID Connect Discovery), shaped by oidc-provider',
  },
  {
    method: /^(GET|HEAD|POST)$/,
    url: /^(\/oauth\/\*|\/passport\/open\/oauth\/token\/)$/,
    why: 'the OpenID provider’s endpoints: RFC 6749 answers, redirects and pages of oidc-provider',
  },
  { method: /^(GET|HEAD)$/, url: /^\/vc\/sdk\//, why: 'the challenge script: JavaScript' },
  {
    method: 'DELETE',
    url: /^\/scim\/v2\/(Users|Groups)\/:id$/,
    why: 'a SCIM delete answers 204 No Content (RFC 7644 §3.6): no body',
  },
  { method: /^(GET|HEAD)$/, url: /^\/dev\/outbox\/?$/, why: 'the dev outbox page: HTML' },
  {
    method: 'GET',
    url: /^\/sso\/(login|logout)$/,
    why: 'the sso pages: a redirect to the service or an HTML page (the sign-out confirmation, an error)',
  },
  {
    method: 'GET',
    url: /^\/user\/web\/download\/image\/$/,
    why: 'an image download: the bytes (failures in the web envelope)',
  },
];

/** Where the route declares its success data: the success branch of its 200, else the 200 itself. */
export function dataSchemaOf(route: InventoryRoute): JsonSchema | undefined {
  const responses = (
    route.schema as { response?: Record<string, JsonSchema & { description?: string }> } | undefined
  )?.response;
  // A create answers 201 (SCIM, RFC 7644 §3.3): its data is declared there.
  const ok = responses?.[200] ?? responses?.[201];
  const success = ok?.anyOf?.find((branch) => (branch as { description?: string }).description === 'success');
  return success ? success.properties?.data : ok;
}

/**
 * Why a data schema declares no shape: it accepts anything, or it is an object (or a list of objects)
 * that names none of its fields and allows any. `undefined` when it declares one. A field inside a
 * declared object may still be free-form (details the client wrote, a map of counts).
 */
export function looseness(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return 'no 200 response schema';
  const union = schema.anyOf ?? schema.oneOf ?? (schema as { allOf?: JsonSchema[] }).allOf;
  if (union)
    return union
      .filter((branch) => branch.type !== 'null')
      .map(looseness)
      .find(Boolean);
  if (schema.type === 'array')
    return schema.items
      ? looseness(schema.items) && `a list of ${looseness(schema.items)}`
      : 'a list of anything';
  if (schema.type === undefined && schema.const === undefined && !schema.enum) return 'anything';
  if (
    schema.type === 'object' &&
    !Object.keys(schema.properties ?? {}).length &&
    schema.additionalProperties === true
  )
    return 'an object with no declared field';
  if (schema.type === 'object') {
    // A page or a wrapper: its lists (and the branches of a field that may be null) say what it holds.
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      if (field.type !== 'array' && !field.anyOf) continue;
      const loose = looseness(field);
      if (loose) return `${name}: ${loose}`;
    }
  }
  return undefined;
}

/** `//a/./x/../b` → `/a/b`: the path a variant reaches, for the predicates below. */
function normalisePath(url: string): string {
  const path = (url.split('?')[0] ?? '').replace(/\/{2,}/g, '/');
  try {
    return new URL(path, 'http://localhost').pathname;
  } catch {
    return path;
  }
}

/**
 * Public documents: the OpenAPI document and its UI, standard documents such as the JWKS, the
 * challenge script (/vc/sdk/…) and the image downloads (/user/web/download/image: bytes, cached when
 * approved; test/sdk/uploads.test.ts checks their headers). Their successes are not envelopes and they
 * may be cached; every other response is an auth response.
 */
export const isPublicDocument = (url: string) =>
  /^\/(docs|\.well-known|vc\/sdk|user\/web\/download\/image\/?$)(\/|$)/.test(normalisePath(url));

/**
 * Pages a person's browser navigates to, whose answers are HTML (the page, or an error page with a
 * 4xx) or redirects, never JSON envelopes. Each needs a reason.
 */
export const PAGE_ROUTES: readonly { url: RegExp; methods?: readonly string[]; why: string }[] = [
  {
    url: /^\/passport\/auth\/(wap_login|login_success)\/?$/,
    why: 'the wap login of the app flavour: browser redirects to the app’s sign-in and login-success pages, or (hand_back=1) to a service the redirect rule allows (flows/wap-login)',
  },
  {
    url: /^\/sso\/login\/?$/,
    why: 'the sso sign-in page: a redirect to the service with a ticket, the sso app, or an HTML error page (400) for an unregistered service',
  },
  {
    url: /logout\/?$/i,
    methods: ['GET', 'HEAD'],
    why: 'GET logout: a redirect (JSON with not_redirect=1), or, when the browser does not vouch for the navigation as same-origin or typed, the HTML confirmation page that keeps the session (flows/sign-out)',
  },
  {
    url: /^\/passport\/web\/email\/register\/confirm\/?$/,
    methods: ['GET', 'HEAD'],
    why: 'the no-verify registration link opens an HTML page whose button posts the link on; opening it changes nothing (flows/register-link)',
  },
];

/** Routes whose successes are not JSON envelopes: public documents, the dev outbox page, browser pages. */
/**
 * The OpenID provider's endpoints (open authorization, docs/open-authorization.md): stock OAuth clients
 * read RFC 6749 answers (`{error, error_description}` JSON, the authorization endpoint's redirects and
 * HTML error page), not our envelopes.
 */
export const isOAuthRoute = (url: string) =>
  /^\/(oauth|passport\/open\/oauth\/token)(\/|$)/.test(normalisePath(url));

export const isNonEnvelopeRoute = (url: string, method = 'GET') =>
  isPublicDocument(url) ||
  isOAuthRoute(url) ||
  /^\/dev\/outbox\/?$/.test(normalisePath(url)) ||
  PAGE_ROUTES.some(
    (page) => page.url.test(normalisePath(url)) && (!page.methods || page.methods.includes(method)),
  );

/**
 * GET routes that change state on purpose: logout is a browser navigation in the spec (§2, "Logout:
 * navigates to a logout address"), so its GET kills the session; it is guarded by a cross-site check
 * instead of a token, and test/inventory.test.ts tests that guard. /sso/logout is one of them.
 *
 * Two sso GETs write one-time state and are not listed, because no forged navigation can misuse them:
 * GET /sso/login, for a signed-in browser, stores a service ticket and sends the browser to the
 * registered service with it (a foreign page can only send the person to that service, signed in,
 * which is what the service asked for; the ticket never reaches the foreign page); and
 * /passport/sso/service_validate/ uses a ticket up, but reads no cookie: a service's back end calls
 * it, and only the holder of the ticket can. Both write only to the store (tickets live 60 s), which
 * snapshotState leaves out like every rate-limit counter. GET get_qrcode (web, sso, legacy) is the
 * same: it writes a new QR code to the store (120 s) and sets the browser's binding cookie; a forged
 * navigation only makes the victim's browser hold a code nobody else can poll (docs/qr-login.md).
 */
export const isStateChangingGet = (url: string) => /logout\/?$/i.test(url);

export const schemaOf = (route: InventoryRoute, part: 'body' | 'querystring' | 'params') =>
  (route.schema as Record<string, JsonSchema | undefined> | undefined)?.[part];

/** The URL with its parameters filled in (`:aid` → `1`, `*` → a file name). */
export function concreteUrl(
  route: InventoryRoute,
  fill: (name: string) => string = () => '1',
  encode: (value: string) => string = encodeURIComponent,
): string {
  return route.url
    .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?\??/g, (_, name: string) => encode(fill(name)))
    .replace(/\*$/, 'index.html');
}

/** A value a real client might send for a field of this name. */
const PLAUSIBLE: Record<string, () => unknown> = {
  mobile: () => freshMobile(),
  old_mobile: () => freshMobile(),
  email: () => freshEmail(),
  code: () => '123456',
  password: () => 'Portico-inventory-horse-9',
  current_password: () => 'Portico-inventory-horse-8',
  username: () => `fuzz_user_${Math.random().toString(36).slice(2, 8)}`,
  account: () => `fuzz_user_${Math.random().toString(36).slice(2, 8)}`,
  next: () => '/',
  next_url: () => '/',
  service: () => '/',
  redirect_uri: () => 'http://localhost:3000/callback',
  not_redirect: () => '1',
  aid: () => '1',
  account_sdk_source: () => 'web',
  sdk_version: () => '2.0.0',
  language: () => 'en',
  need_frozen_user: () => 0,
  to: () => freshEmail(),
  ect_type: () => 13,
  page: () => 1,
  page_size: () => 10,
};

/** Optional fields a plausible request leaves out (mix_mode=1 would mean "the fields are encoded"). */
const LEAVE_OUT = new Set(['mix_mode']);

/** A value that satisfies a schema, preferring what a real client would send for the field's name. */
export function plausibleValue(name: string, schema: JsonSchema | undefined): unknown {
  const known = PLAUSIBLE[name];
  if (known) return known();
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (branch) return plausibleValue(name, branch);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [plausibleValue(name, schema.items)];
    case 'object':
      return plausibleObject(schema);
    case 'null':
      return null;
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** Every required field, plus the optional ones a client would send; the code purpose fits the channel. */
export function plausibleObject(schema: JsonSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!schema?.properties) return out;
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties)) {
    if (name === 'type' && (property.type === 'integer' || property.type === 'number')) continue;
    if (required.has(name) || (name in PLAUSIBLE && !LEAVE_OUT.has(name))) {
      out[name] = plausibleValue(name, property);
    }
  }
  const type = schema.properties.type;
  if (type) {
    if (type.type === 'integer' || type.type === 'number') {
      // 24: mobile login code, 13: e-mail login code (the spec's code-purpose table).
      out.type = 'email' in out && !('mobile' in out) ? 13 : 24;
    }
  }
  return out;
}

/** Form-encodes an object the way the SDK does (arrays as repeated keys, undefined dropped). */
export function formEncode(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else
      params.append(key, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  return params.toString();
}

/** A plausible query string for the route (`?aid=1&…`), or '' when it declares none. */
export function plausibleQuery(route: InventoryRoute): string {
  const schema = schemaOf(route, 'querystring');
  if (!schema) return '';
  const query = formEncode(plausibleObject(schema));
  return query ? `?${query}` : '';
}

/**
 * Tables that are not state of their own: rate-limit counters, and what the events dispatcher derives
 * from the outbox a moment after a commit (its cursors and the audit log; the `events` table itself
 * is compared).
 */
const DERIVED_TABLES = new Set(['store_entries', 'event_cursors', 'audit_log']);

/** Columns that move on every authenticated request (sliding expiry): bookkeeping, not state. */
const TOUCH_COLUMNS = new Set(['last_seen_at']);

/** The tables a snapshot reads, introspected once per server (the schema does not change under a test). */
const tableLists = new WeakMap<FastifyInstance, Promise<TableMetadata[]>>();
function tablesOf(app: FastifyInstance): Promise<TableMetadata[]> {
  let tables = tableLists.get(app);
  if (!tables) {
    const schema = app.config.databaseSchema;
    tables = app.db.introspection
      .getTables()
      .then((all) =>
        all.filter(
          (t) =>
            (!schema || t.schema === undefined || t.schema === schema) &&
            !t.isView &&
            !t.name.startsWith('kysely_') &&
            !DERIVED_TABLES.has(t.name),
        ),
      );
    tableLists.set(app, tables);
  }
  return tables;
}

/**
 * Everything the server persisted, table by table, minus DERIVED_TABLES and the migration bookkeeping. Rows whose table has a last_seen_at column are compared without it and
 * without expires_at (touching a session slides its expiry). `sent` counts messages handed to the
 * test's own providers.
 */
export async function snapshotState(app: FastifyInstance, sent: () => number = () => 0) {
  const tables = await tablesOf(app);
  const state: Record<string, string[]> = {};
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) {
    const touched = table.columns.some((c) => TOUCH_COLUMNS.has(c.name));
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(app.db))
      .rows;
    state[table.name] = rows
      .map((row) =>
        JSON.stringify(
          Object.entries(row)
            .filter(([column]) => !TOUCH_COLUMNS.has(column) && !(touched && column === 'expires_at'))
            .map(([column, value]) => [column, typeof value === 'bigint' ? String(value) : value]),
        ),
      )
      .sort();
  }
  state['(messages handed to providers)'] = [String(sent())];
  return state;
}

/** Row counts per table of a snapshot, for readable failure messages. */
export const countsOf = (state: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(state).map(([table, rows]) => [table, rows.length]));

/**
 * What is wrong with an answer, or null: no 5xx, an `x-tt-logid` and `nosniff` on every response, and
 * a JSON envelope (web, sso or open-auth) carrying a numeric error code on every failure.
 */
export function envelopeProblem(
  response: LightMyRequestResponse,
  options: { method: string; envelopeOptional: boolean },
): string | null {
  const status = response.statusCode;
  if (status >= 500) return `status ${status}: ${response.body.slice(0, 200)}`;
  if (!response.headers['x-tt-logid']) return `no x-tt-logid header (status ${status})`;
  if (response.headers['x-content-type-options'] !== 'nosniff') return `no nosniff header (status ${status})`;
  if (status >= 300 && status < 400) {
    return response.headers.location ? null : `redirect ${status} without a location`;
  }
  if (options.method === 'HEAD') return null;
  if (status < 400 && options.envelopeOptional) return null;
  const type = String(response.headers['content-type'] ?? '');
  // A browser page's error page is HTML (PAGE_ROUTES).
  if (options.envelopeOptional && type.startsWith('text/html')) return null;
  // The management API answers failures as RFC 9457 problem details, with our code beside them.
  const problemDetails = type.startsWith('application/problem+json');
  // SCIM (docs/scim.md) answers in its own media type and error schema (RFC 7644 §3.12).
  const scim = type.startsWith('application/scim+json');
  if (!type.includes('application/json') && !problemDetails && !scim) {
    return `status ${status} with content-type '${type}' instead of a JSON envelope`;
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `status ${status}: the body is not JSON: ${response.body.slice(0, 200)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return `status ${status}: not an object`;
  const b = body as Record<string, unknown>;
  if (scim) {
    if (status < 400) return null;
    const schemas = Array.isArray(b.schemas) ? b.schemas : [];
    if (!schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error') || b.status !== String(status))
      return `status ${status}: a SCIM failure without its error schema or status: ${response.body.slice(0, 200)}`;
    return null;
  }
  if (problemDetails) {
    if (status < 400) return `status ${status}: problem details on a success`;
    if (!Number.isInteger(b.code) || (b.code as number) <= 0 || b.status !== status)
      return `status ${status}: problem details without our code or its status: ${response.body.slice(0, 200)}`;
    return null;
  }
  const web = b.message === 'success' || b.message === 'error';
  const sso = typeof b.error_code === 'number';
  const auth = typeof b.status_code === 'number';
  // An RFC 6749 error body where the route answers in it (isOAuthRoute, through envelopeOptional).
  if (options.envelopeOptional && typeof b.error === 'string' && status >= 400) return null;
  if (!web && !sso && !auth) return `status ${status}: no envelope: ${response.body.slice(0, 200)}`;
  const failed =
    status >= 400 || b.message === 'error' || (sso && b.error_code !== 0) || (auth && b.status_code !== 0);
  if (failed) {
    const { error_code } = failureOf(body);
    if (!Number.isInteger(error_code) || error_code <= 0)
      return `status ${status}: a failure without a numeric error_code: ${response.body.slice(0, 200)}`;
  }
  return null;
}

/** The error code of an envelope (0 for a success). */
export function errorCodeOf(response: LightMyRequestResponse): number {
  try {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    if (body.message === 'success' || body.error_code === 0 || body.status_code === 0) return 0;
    return failureOf(body).error_code;
  } catch {
    return -1;
  }
}
