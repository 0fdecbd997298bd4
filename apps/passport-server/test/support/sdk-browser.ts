import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  type AccountClient,
  type AccountError,
  createAccountClient,
  isAccountError,
} from '@portico/account-sdk';
import { expect } from 'vitest';
import { type AccountSource, CSRF_HEADER, ErrorCode, type ErrorName } from '../../src/protocol';
import { newestCode, startServer, type TestServer } from './server';

/**
 * The real server on a loopback port, driven by the real `@portico/account-sdk` as an app would drive
 * it. Node's fetch has no cookie jar, so each simulated browser is a jar: a `fetch` that sends and
 * stores cookies (following redirects by hand, storing cookies at every hop, as a browser does), and a
 * `document` whose `cookie` shows the SDK only what a page's script could read (no HttpOnly cookies).
 */

/** The page the apps run on: the server's PUBLIC_ORIGIN, so requests carry a same-origin Origin. */
export const PAGE_ORIGIN = 'http://localhost:3000';
export const AID = 1128;

interface Cookie {
  value: string;
  httpOnly: boolean;
}

export class SdkBrowser {
  readonly cookies = new Map<string, Cookie>();
  /** The client address, sent as X-Forwarded-For (the test server trusts loopback as its proxy). */
  readonly address = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  /** Drop the CSRF header the SDK copies from the cookie (a forged request from another page). */
  stripCsrf = false;
  /** Headers added to every request besides the SDK's own (forged ones, in the tests that forge them). */
  headers: Record<string, string> = {};
  /** Every exchange on the wire, in order (redirect hops included). */
  readonly exchanges: { method: string; path: string; status: number }[] = [];

  constructor(readonly baseUrl: string) {}

  /** What `document.cookie` shows a script: readable cookies only; writes add or replace one cookie. */
  readonly document = {
    get: () =>
      [...this.cookies]
        .filter(([, c]) => !c.httpOnly)
        .map(([name, c]) => `${name}=${c.value}`)
        .join('; '),
    set: (line: string) => this.store(line, false),
  };

  /** A client of the given flavour over this browser's jar. */
  client(source: AccountSource = 'web', language = 'en'): AccountClient {
    const doc = this.document;
    return createAccountClient({
      aid: AID,
      baseUrl: this.baseUrl,
      source,
      language,
      // The SDK's default 5 s per request is a browser's patience, not a bound for a test server on a
      // loaded 2-core machine (a registration hashes with argon2id and runs the password estimator):
      // a fresh-clone run at load average 18 lost two tests to it. 15 s stays below the test's own 20 s,
      // so a hang still fails, and clearly.
      timeout: 15_000,
      fetch: this.fetch,
      document: {
        get cookie() {
          return doc.get();
        },
        set cookie(line: string) {
          doc.set(line);
        },
      },
    });
  }

  /** The session cookie's value (HttpOnly: the SDK never sees it; tests look at the jar). */
  get session(): string | undefined {
    return this.cookies.get('sessionid')?.value;
  }

  private store(line: string, fromServer: boolean): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attrs = attributes.map((a) => a.toLowerCase());
    const maxAge = attrs.find((a) => a.startsWith('max-age='));
    const expires = attributes.find((a) => a.toLowerCase().startsWith('expires='));
    const expired =
      value === '' ||
      (maxAge !== undefined && Number(maxAge.slice(8)) <= 0) ||
      (expires !== undefined && new Date(expires.slice(8)).getTime() <= Date.now());
    if (expired) this.cookies.delete(name);
    else this.cookies.set(name, { value, httpOnly: fromServer && attrs.includes('httponly') });
  }

  /** The fetch handed to the SDK: the jar's cookies out, Set-Cookie in, redirects followed by hand. */
  readonly fetch: typeof fetch = async (input, init) => {
    let request = new Request(input, init);
    for (let hop = 0; hop < 5; hop += 1) {
      const headers = new Headers(request.headers);
      for (const [name, value] of Object.entries(this.headers)) headers.set(name, value);
      const cookie = [...this.cookies].map(([name, c]) => `${name}=${c.value}`).join('; ');
      if (cookie) headers.set('cookie', cookie);
      headers.set('x-forwarded-for', this.address);
      if (request.method !== 'GET') headers.set('origin', PAGE_ORIGIN);
      // What a browser adds to every request from a page of the same origin (a GET logout needs it).
      if (!headers.has('sec-fetch-site')) headers.set('sec-fetch-site', 'same-origin');
      if (this.stripCsrf) headers.delete(CSRF_HEADER);
      const response = await fetch(new Request(request, { headers, redirect: 'manual' }));
      for (const line of response.headers.getSetCookie()) this.store(line, true);
      const { pathname } = new URL(request.url);
      this.exchanges.push({ method: request.method, path: pathname, status: response.status });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      request = new Request(new URL(location, request.url), { method: 'GET' });
    }
    throw new Error('too many redirects');
  };
}

export interface SdkServer extends TestServer {
  baseUrl: string;
  browser(): never;
  /** A fresh simulated browser with its own cookie jar and client address. */
  sdkBrowser(): SdkBrowser;
  /** The newest six-digit code the dev outbox holds for a mobile or e-mail, read over HTTP. */
  codeFor(to: string): Promise<string>;
}

/** Boots the real server (SQLite, PostgreSQL or Redis, per the vitest project) on an ephemeral port. */
export async function startSdkServer(...args: Parameters<typeof startServer>): Promise<SdkServer> {
  const [overrides = {}, options] = args;
  const server = await startServer({ trustProxy: '127.0.0.1', ...overrides }, options);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    ...server,
    baseUrl,
    browser: () => {
      throw new Error('SDK tests use sdkBrowser(): requests go through the real SDK');
    },
    sdkBrowser: () => new SdkBrowser(baseUrl),
    async codeFor(to) {
      const response = await fetch(`${baseUrl}/dev/outbox/messages?to=${encodeURIComponent(to)}`);
      const body = (await response.json()) as { data: { messages: { text: string }[] } };
      const code = newestCode(body.data.messages);
      if (!code) throw new Error(`no code in the outbox for ${to}`);
      return code;
    },
  };
}

/** The AccountError a call rejects with (fails the test when it resolves or throws something else). */
export async function rejection(call: Promise<unknown>): Promise<AccountError> {
  const outcome = await call.then(
    (data) => ({ data }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.data)}`);
  if (!isAccountError(outcome.error)) throw outcome.error;
  return outcome.error;
}

/**
 * Asserts what an app sees on a failure: a `response` AccountError with the catalogue code of `name`,
 * a user-facing description and the `log_id` of the exchange.
 */
export function expectAccountError(error: AccountError, name: ErrorName): void {
  expect({ kind: error.kind, error_code: error.error_code }).toEqual({
    kind: 'response',
    error_code: ErrorCode[name],
  });
  expect(error.description).not.toBe('');
  expect(error.log_id).toMatch(/^\d{14}[0-9A-F]{12}$/);
}

/** The rejection of a call, asserted as `expectAccountError` does. */
export async function rejectsWith(call: Promise<unknown>, name: ErrorName): Promise<AccountError> {
  const error = await rejection(call);
  expectAccountError(error, name);
  return error;
}
