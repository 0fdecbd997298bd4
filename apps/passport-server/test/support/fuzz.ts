import type { InventoryRoute } from '../../src/lib/route-inventory';
import {
  BODY_METHODS,
  concreteUrl,
  formEncode,
  type JsonSchema,
  plausibleObject,
  plausibleQuery,
  schemaOf,
} from './inventory';

/**
 * Seeded generators of malformed requests for test/fuzz.test.ts. Everything random comes from one
 * `Random`, so a seed replays the same run: `FUZZ_SEED=1234 pnpm exec vitest run test/fuzz.test.ts`.
 */

/** mulberry32: small, fast, good enough to spread cases; never used for anything secret. */
export class Random {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

/** The seed of this run: FUZZ_SEED when set, else a fresh one (printed by the test). */
export function fuzzSeed(): number {
  const fromEnv = Number(process.env.FUZZ_SEED);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.floor(Math.random() * 2 ** 31) + 1;
}

export interface FuzzRequest {
  /** What the generator did, for the failure message. */
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Send without the CSRF header (or with a broken one already in headers). */
  dropCsrf?: boolean;
  /** The status the server must answer, when one is certain (413 for an oversized parsed body). */
  expectStatus?: number;
}

/** Strings that have broken parsers, normalisers and databases elsewhere. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  'a\u0000b',
  '\u0000',
  '%00',
  '\u202Eevil',
  '\uFEFF+8613800138000',
  '😀'.repeat(40),
  'Ａ'.repeat(30),
  '１３８００１３８０００',
  'e\u0301'.repeat(50),
  '\uD800',
  '\uDFFF\uD800',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, sent literally
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  'javascript:alert(1)',
  '//evil.example.net',
  'https://evil.example.net/',
  '\\\\evil.example.net',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x18',
  '24abc',
  ' 24 ',
  '+24',
  '2.4e1',
  '9'.repeat(400),
  '-9'.repeat(30),
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'a@b',
  '@',
  `${'a'.repeat(254)}@example.com`,
  'user@[127.0.0.1]',
  'user@xn--80ak6aa92e.com',
  '"quoted local"@example.com',
  '+',
  '+0',
  '+999999999999999999999',
  '00000000000',
  '1'.repeat(33),
];

/** Keys that have polluted prototypes or confused parsers elsewhere. */
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '',
  ' ',
  'a.b',
  'a[]',
  'a[0]',
  'user_id',
  'is_admin',
  'role',
  'session',
  'language',
  'mix_mode',
];

const METHODS_ELSEWHERE = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'SEARCH', 'TRACE', 'PROPFIND', 'COPY'];

/** A value of the wrong kind for a field whose schema says `expected`. */
function wrongValue(rnd: Random, schema: JsonSchema | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  const options: unknown[] = [
    rnd.pick(NASTY_STRINGS),
    null,
    true,
    [],
    {},
    [1, 2],
    ['a', 'b', 'c'],
    { nested: { deeper: 'x' } },
    -1,
    0,
    1.5,
    2 ** 53 + 1,
    -(2 ** 31),
  ];
  if (type === 'integer' || type === 'number') {
    options.push(
      'twenty-four',
      '',
      '1.5',
      '1e400',
      (schema?.maximum ?? 1000) + 1,
      (schema?.minimum ?? 0) - 1,
      '0x10',
      ' 7',
    );
  }
  if (type === 'string' || type === undefined) {
    const max = schema?.maxLength ?? 256;
    options.push('x'.repeat(max + 1), '', 'x'.repeat(rnd.int(1000, 20_000)), 12345, [
      rnd.pick(NASTY_STRINGS),
    ]);
  }
  return rnd.pick(options);
}

/** Mutates a plausible object: missing, extra, wrong-typed, nasty, duplicated fields. */
function mutateObject(rnd: Random, base: Record<string, unknown>, schema: JsonSchema | undefined): string[] {
  const done: string[] = [];
  const names = Object.keys(schema?.properties ?? base);
  const rounds = rnd.int(1, 3);
  for (let i = 0; i < rounds; i++) {
    const name = names.length ? rnd.pick(names) : 'field';
    switch (rnd.int(0, 5)) {
      case 0:
        delete base[name];
        done.push(`without ${name}`);
        break;
      case 1: {
        const key = rnd.chance(0.5) ? rnd.pick(NASTY_KEYS) : rnd.string(rnd.int(1, 40));
        base[key] = rnd.chance(0.5) ? rnd.pick(NASTY_STRINGS) : wrongValue(rnd, undefined);
        done.push(`extra ${JSON.stringify(key)}`);
        break;
      }
      case 2:
      case 3:
        base[name] = wrongValue(rnd, schema?.properties?.[name]);
        done.push(`${name} wrong`);
        break;
      case 4:
        base[name] = rnd.pick(NASTY_STRINGS);
        done.push(`${name} nasty`);
        break;
      default:
        base[name] = [base[name] ?? 'a', rnd.pick(NASTY_STRINGS)];
        done.push(`${name} repeated`);
    }
  }
  return done;
}

/** Raw form strings no URLSearchParams would produce. */
function rawForm(rnd: Random, valid: string): [string, string] {
  const cases: [string, () => string][] = [
    ['bad percent', () => `${valid}&mobile=%`],
    ['bad percent ZZ', () => `${valid.replace(/=/, '=%ZZ')}`],
    ['truncated percent', () => `${valid}&code=%E4%B8`],
    ['invalid UTF-8', () => `${valid.replace(/=/, '=%C3%28%FF%FE')}`],
    ['overlong UTF-8', () => `${valid}&email=%C0%AF%E0%80%AF`],
    ['null bytes', () => `${valid.replace(/=/, '=%00%00')}&%00=%00`],
    ['only separators', () => '&&&&===&=&'],
    ['keys without values', () => 'mobile&type&code&password'],
    ['semicolons', () => valid.replace(/&/g, ';')],
    ['a plus-encoded body', () => valid.replace(/%20/g, '+').replace(/=/g, '=+++')],
    ['deeply nested keys', () => `${valid}&a${'[b]'.repeat(rnd.int(50, 3000))}=1`],
    ['nested keys on a real field', () => `${valid}&mobile${'[x]'.repeat(rnd.int(1, 200))}=1`],
    ['bracket arrays', () => `${valid}&mobile[]=1&mobile[]=2&type[]=24`],
    ['indexed arrays', () => `${valid}&mobile[0]=1&mobile[1]=2`],
    ['prototype keys', () => `${valid}&__proto__[x]=1&constructor[prototype][y]=2&__proto__=z`],
    [
      'thousands of keys',
      () => Array.from({ length: rnd.int(1000, 6000) }, (_, i) => `k${i}=${i}`).join('&'),
    ],
    ['one field repeated thousands of times', () => `${valid}${'&mobile=1'.repeat(rnd.int(1000, 6000))}`],
    ['a huge key', () => `${'k'.repeat(rnd.int(5000, 60_000))}=1&${valid}`],
    ['a huge value', () => `${valid}&mobile=${'9'.repeat(rnd.int(5000, 60_000))}`],
    ['raw high bytes', () => `${valid}&x=\u00ff\u00fe`],
    ['a JSON document as the form', () => JSON.stringify(Object.fromEntries(new URLSearchParams(valid)))],
  ];
  const [label, make] = rnd.pick(cases);
  return [label, make()];
}

/** JSON bodies: wrong shapes, deep nesting, prototype keys, broken text, other encodings. */
function jsonBody(rnd: Random, base: Record<string, unknown>): [string, string | Buffer] {
  const cases: [string, () => string | Buffer][] = [
    ['JSON with the plausible fields', () => JSON.stringify(base)],
    ['a JSON array', () => JSON.stringify([base])],
    ['a JSON string', () => JSON.stringify('mobile=1')],
    ['a JSON number', () => '24'],
    ['JSON null', () => 'null'],
    ['JSON true', () => 'true'],
    ['an empty JSON body', () => ''],
    ['broken JSON', () => JSON.stringify(base).slice(0, -rnd.int(1, 5))],
    ['JSON with a trailing comma', () => '{"mobile":"1",}'],
    ['JSON with duplicate keys', () => '{"mobile":"+8613800138000","mobile":{"$gt":""}}'],
    ['JSON prototype pollution', () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'],
    [
      'deeply nested JSON objects',
      () => {
        const depth = rnd.int(100, 9000);
        return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      },
    ],
    [
      'deeply nested JSON arrays',
      () => {
        const depth = rnd.int(100, 30_000);
        return `${'['.repeat(depth)}${']'.repeat(depth)}`;
      },
    ],
    ['unbalanced deep JSON', () => '['.repeat(rnd.int(1000, 60_000))],
    ['JSON with a BOM', () => `\uFEFF${JSON.stringify(base)}`],
    ['JSON in UTF-16', () => Buffer.from(JSON.stringify(base), 'utf16le')],
    [
      'JSON with invalid UTF-8',
      () => Buffer.concat([Buffer.from('{"mobile":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
    ],
    ['JSON with a lone surrogate escape', () => '{"mobile":"\\ud800","email":"\\udfff@x.y"}'],
    ['JSON with huge numbers', () => '{"type":1e999999,"mobile":123456789012345678901234567890}'],
    [
      'JSON with nested wrong types',
      () => JSON.stringify(Object.fromEntries(Object.keys(base).map((k) => [k, { $ne: null }]))),
    ],
  ];
  const [label, make] = rnd.pick(cases);
  return [label, make()];
}

/** Content types that are odd, wrong, or tricks on the parser table. */
const ODD_CONTENT_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'text/plain; charset=application/json',
  'application/xml',
  'text/xml',
  'application/octet-stream',
  'application/x-www-form-urlencodedx',
  'application/jsonx',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded; charset=utf-32',
  'APPLICATION/X-WWW-FORM-URLENCODED',
  ' application/json',
  'application/json, text/plain',
  'application/vnd.api+json',
  '*/*',
  'application/*',
  ';;;',
  '=',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=----x',
  'multipart/mixed; boundary=x',
  `application/${'x'.repeat(4000)}`,
  'application/x-www-form-urlencoded; boundary=application/json',
];

const MULTIPART_GARBAGE = [
  '------x\r\nContent-Disposition: form-data; name="mobile"\r\n\r\n+8613800138000\r\n------x--\r\n',
  '------x\r\nContent-Disposition: form-data; name="avatar"; filename="a.svg"\r\nContent-Type: image/svg+xml\r\n\r\n<svg onload=alert(1)>\r\n------x--',
  '------x\r\n\r\n\r\n',
  '--',
  'garbage without boundaries',
];

/** Header values a broken client, a proxy or an attacker might send. */
function absurdHeaders(rnd: Random): [string, Record<string, string>] {
  const cases: [string, () => Record<string, string>][] = [
    ['a huge cookie', () => ({ cookie: `sessionid=${'a'.repeat(rnd.int(100, 8000))}` })],
    ['a malformed cookie', () => ({ cookie: 'sessionid=%ZZ; passport_pre=%; ;;; =; passport_csrf_token' })],
    ['many cookies', () => ({ cookie: Array.from({ length: 300 }, (_, i) => `c${i}=${i}`).join('; ') })],
    [
      'a duplicated session cookie',
      () => ({ cookie: 'sessionid=a; sessionid=b; passport_pre=c; passport_pre=d' }),
    ],
    ['a huge CSRF header', () => ({ 'x-tt-passport-csrf-token': 'A'.repeat(rnd.int(100, 8000)) })],
    ['a non-ASCII CSRF header', () => ({ 'x-tt-passport-csrf-token': '\u00e9\u00ff'.repeat(22) })],
    ['origin null', () => ({ origin: 'null' })],
    [
      'a garbage origin',
      () => ({ origin: rnd.pick(['://', 'http://', 'x', 'http://[::1', `http://${'a'.repeat(3000)}.com`]) }),
    ],
    [
      'a garbage sec-fetch-site',
      () => ({ 'sec-fetch-site': rnd.pick(['', 'CROSS-SITE', 'same-origin, cross-site', 'x'.repeat(500)]) }),
    ],
    [
      'a garbage referer',
      () => ({ referer: rnd.pick(['::', 'http://[', 'javascript:alert(1)', 'x'.repeat(5000)]) }),
    ],
    ['a huge accept-language', () => ({ 'accept-language': 'en;q=0.9,'.repeat(rnd.int(10, 800)) })],
    [
      'garbage forwarding headers',
      () => ({
        'x-forwarded-for': 'not-an-ip, ::ffff:, 999.1.1.1',
        'x-forwarded-host': 'evil.example.net',
        'x-forwarded-proto': 'gopher',
      }),
    ],
    ['a garbage host', () => ({ host: rnd.pick(['evil.example.net', '[::1', 'a:b:c', 'x'.repeat(300)]) })],
    ['a huge user-agent', () => ({ 'user-agent': 'Mozilla/5.0 '.repeat(rnd.int(10, 700)) })],
    ['a garbage traceparent', () => ({ traceparent: rnd.pick(['00-', 'zz-zz-zz-zz', '0'.repeat(2000)]) })],
    ['a method override header', () => ({ 'x-http-method-override': 'DELETE', 'x-method-override': 'PUT' })],
    ['a gzip content-encoding on plain text', () => ({ 'content-encoding': 'gzip' })],
    ['a garbage accept', () => ({ accept: 'text/html;q=x, */*;;;q=' })],
  ];
  const [label, make] = rnd.pick(cases);
  return [label, make()];
}

/** Percent-encodes any string; a lone surrogate becomes the bytes of an encoded surrogate (invalid UTF-8). */
function percent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\uD800-\uDFFF]|[^\uD800-\uDFFF]+/g, (part) =>
      /^[\uD800-\uDFFF]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part),
    );
  }
}

/** Query strings that are broken, huge, repeated or typed wrong. */
function badQuery(rnd: Random, plausible: string): [string, string] {
  const base = plausible ? plausible.slice(1) : 'aid=1';
  const cases: [string, () => string][] = [
    ['a bare percent', () => `?${base}&%`],
    ['bad percent-encoding', () => `?aid=%ZZ&language=%E4%B8&next=%`],
    ['invalid UTF-8 in the query', () => `?${base}&language=%C3%28&next=%FF`],
    ['null bytes in the query', () => `?aid=%00&next=%2F%00evil&${base}`],
    ['repeated parameters', () => `?${base}&language=en&language=zh&aid=1&aid=2`],
    ['bracket parameters', () => `?language[]=en&aid[x]=1&next[]=/&${base}`],
    ['prototype parameters', () => `?__proto__=1&constructor[prototype][x]=1&__proto__[y]=2&${base}`],
    ['an empty query', () => '?'],
    ['only separators', () => '?&&&==&'],
    ['a huge parameter', () => `?${base}&aid=${'1'.repeat(rnd.int(100, 20_000))}`],
    [
      'thousands of parameters',
      () => `?${Array.from({ length: rnd.int(500, 3000) }, (_, i) => `p${i}=${i}`).join('&')}`,
    ],
    [
      'a hostile next',
      () => `?${base}&next=${percent(rnd.pick(NASTY_STRINGS))}&not_redirect=${rnd.pick(['1', '0', ''])}`,
    ],
    [
      'nasty values for every parameter',
      () => `?${base.replace(/=[^&]*/g, () => `=${percent(rnd.pick(NASTY_STRINGS))}`)}`,
    ],
    ['a double question mark', () => `??${base}?x=1`],
    ['a hash', () => `?${base}#frag`],
  ];
  const [label, make] = rnd.pick(cases);
  return [label, make()];
}

/** A path of the route with its parameters filled with garbage, or the path itself mangled. */
function badPath(rnd: Random, route: InventoryRoute): [string, string] {
  const url = concreteUrl(route);
  const cases: [string, () => string][] = [
    ['garbage path parameters', () => concreteUrl(route, () => rnd.pick(NASTY_STRINGS) || 'x', percent)],
    [
      'a traversal path parameter',
      () =>
        concreteUrl(route, () => '../../../../etc/passwd').replace(
          'index.html',
          '..%2f..%2f..%2fpackage.json',
        ),
    ],
    ['a long path parameter', () => concreteUrl(route, () => 'p'.repeat(rnd.int(150, 5000)))],
    ['a bad percent in the path', () => `${url}%`],
    ['invalid UTF-8 in the path', () => `${url}%C3%28`],
    ['a null byte in the path', () => `${url.replace(/\/$/, '')}%00/`],
    ['a suffix', () => `${url}${rnd.pick(['x', '.json', ';jsessionid=1', '%2e%2e/', '..', '~', '*'])}`],
    ['a huge path', () => `${url}${'a/'.repeat(rnd.int(100, 4000))}`],
    ['a unicode path', () => `${url}${percent('ü😀\u202E')}`],
    ['encoded dots', () => url.replace(/^\//, '/%2e/%2E%2E/')],
  ];
  const [label, make] = rnd.pick(cases);
  return [label, make()];
}

/**
 * One malformed request for a route of the inventory. Roughly: half change the body or its encoding,
 * the rest break the query, the path, the method or the headers; a few are oversized (413 expected).
 */
export function malformedRequest(rnd: Random, route: InventoryRoute, bodyLimit: number): FuzzRequest {
  const bodySchema = schemaOf(route, 'body');
  const takesBody = BODY_METHODS.has(route.method);
  const base = plausibleObject(bodySchema ?? schemaOf(route, 'querystring'));
  const query = plausibleQuery(route);
  const url = `${concreteUrl(route)}${query}`;
  const request: FuzzRequest = { label: '', method: route.method, url, headers: {} };
  const form = (body: Record<string, unknown>) => {
    request.headers['content-type'] = 'application/x-www-form-urlencoded';
    request.payload = formEncode(body);
  };

  const kind = rnd.int(0, 99);
  if (takesBody && kind < 22) {
    request.label = `form: ${mutateObject(rnd, base, bodySchema).join(', ')}`;
    form(base);
  } else if (takesBody && kind < 34) {
    const [label, payload] = rawForm(rnd, formEncode(base));
    request.label = `form: ${label}`;
    request.headers['content-type'] = 'application/x-www-form-urlencoded';
    request.payload = payload;
  } else if (takesBody && kind < 44) {
    const mutations = rnd.chance(0.5) ? mutateObject(rnd, base, bodySchema) : [];
    const [label, payload] = jsonBody(rnd, base);
    request.label = `json: ${label}${mutations.length ? ` (${mutations.join(', ')})` : ''}`;
    request.headers['content-type'] = rnd.pick(['application/json', 'application/json; charset=utf-8']);
    request.payload = payload;
  } else if (takesBody && kind < 54) {
    const type = rnd.pick(ODD_CONTENT_TYPES);
    request.label = `content-type ${JSON.stringify(type.slice(0, 60))}`;
    request.headers['content-type'] = type;
    request.payload = type.startsWith('multipart')
      ? rnd.pick(MULTIPART_GARBAGE)
      : rnd.chance(0.5)
        ? formEncode(base)
        : JSON.stringify(base);
  } else if (takesBody && kind < 58) {
    request.label = 'a body without a content type';
    request.payload = rnd.chance(0.5) ? formEncode(base) : JSON.stringify(base);
  } else if (takesBody && kind < 63) {
    const size = bodyLimit + rnd.int(1, bodyLimit);
    const json = rnd.chance(0.3);
    request.label = `an oversized ${json ? 'JSON' : 'form'} body (${size} bytes)`;
    request.headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
    request.payload = json ? JSON.stringify({ mobile: 'x'.repeat(size) }) : `mobile=${'1'.repeat(size)}`;
    request.expectStatus = 413;
  } else if (!takesBody && kind < 40) {
    const mutations = mutateObject(rnd, base, schemaOf(route, 'querystring'));
    request.label = `query: ${mutations.join(', ')}`;
    request.url = `${concreteUrl(route)}?${formEncode(base)}`;
  } else if (!takesBody && kind < 50) {
    request.label = `a GET with a body`;
    request.headers['content-type'] = rnd.pick([
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
    ]);
    request.payload = rnd.chance(0.5) ? '{"a":' : 'a=1';
  } else if (kind < 72) {
    const [label, q] = badQuery(rnd, query);
    request.label = `query: ${label}`;
    request.url = `${concreteUrl(route)}${q}`;
    if (takesBody) form(base);
  } else if (kind < 82) {
    const [label, path] = badPath(rnd, route);
    request.label = `path: ${label}`;
    request.url = `${path}${query}`;
    if (takesBody) form(base);
  } else if (kind < 87) {
    request.method = rnd.pick(METHODS_ELSEWHERE);
    request.label = `method ${request.method}`;
    if (rnd.chance(0.5)) form(base);
  } else {
    const [label, headers] = absurdHeaders(rnd);
    request.label = `headers: ${label}`;
    Object.assign(request.headers, headers);
    if ('x-tt-passport-csrf-token' in headers) request.dropCsrf = true;
    if (takesBody) form(base);
  }
  // Some requests also skip the CSRF header: the refusal path must hold up to bad input too.
  if (!request.dropCsrf && rnd.chance(0.08)) {
    request.dropCsrf = true;
    request.label += ' (no CSRF header)';
  }
  return request;
}

/** A request to no route at all: random paths and methods. */
export function strayRequest(rnd: Random): FuzzRequest {
  const paths = [
    '/',
    '/passport/',
    '/passport/web/',
    '/passport/web/%',
    `/passport/web/${rnd.string(rnd.int(1, 60))}/`,
    `/${rnd.string(rnd.int(1, 20), 'abc/%.~_-')}`,
    '/..%2f..%2fetc/passwd',
    '/docs/static/..%2f..%2f..%2fpackage.json',
    '/docs/static/%2e%2e/%2e%2e/package.json',
    '/%00',
    '/%C3%28',
    `/${'x'.repeat(rnd.int(1000, 20_000))}`,
    '/*',
    '/passport/web/send_code/%2e%2e/account/info/',
    '/.env',
    '/.git/config',
    '/favicon.ico',
  ];
  const method = rnd.pick(['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
  const request: FuzzRequest = { label: 'a stray request', method, url: rnd.pick(paths), headers: {} };
  if (method === 'POST' || method === 'PUT') {
    request.headers['content-type'] = 'application/x-www-form-urlencoded';
    request.payload = 'a=1';
  }
  return request;
}
