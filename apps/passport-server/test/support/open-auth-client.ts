import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import type { Browser } from './server';

/**
 * A stock relying party for the open-authorization tests: `openid-client` as any third-party app would
 * use it, whose HTTP goes to the server through `app.inject` (the issuer's origin is PUBLIC_ORIGIN,
 * which no socket listens on in these tests). The browser part of the flow goes through a test Browser.
 */

/** fetch over app.inject, as openid-client's customFetch. */
type InjectFetch = (
  url: string,
  options: { method?: string; headers?: unknown; body?: unknown },
) => Promise<globalThis.Response>;

export function injectFetch(app: FastifyInstance, remoteAddress = '10.77.0.1'): InjectFetch {
  return async (url, options) => {
    const target = new URL(url);
    const headers = Object.fromEntries(
      new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).entries(),
    );
    const body =
      options.body instanceof URLSearchParams
        ? options.body.toString()
        : typeof options.body === 'string'
          ? options.body
          : undefined;
    const answer = await app.inject({
      method: (options.method ?? 'GET') as 'GET',
      url: `${target.pathname}${target.search}`,
      headers,
      remoteAddress,
      ...(body === undefined ? {} : { payload: body }),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const status = answer.statusCode;
    return new Response(status === 204 || status === 304 ? null : new Uint8Array(answer.rawPayload), {
      status,
      headers: out,
    });
  };
}

/** The options every openid-client call of the tests takes: http allowed (loopback), fetch over inject. */
export function rpOptions(app: FastifyInstance): { execute: ((config: client.Configuration) => void)[] } {
  return { execute: [client.allowInsecureRequests], [client.customFetch]: injectFetch(app) } as never;
}

export function useInject(config: client.Configuration, app: FastifyInstance): client.Configuration {
  config[client.customFetch] = injectFetch(app) as never;
  client.allowInsecureRequests(config);
  return config;
}

/** PKCE as a stock client makes it. */
export function pkce() {
  const verifier = client.randomPKCECodeVerifier();
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export const randomState = () => randomBytes(16).toString('base64url');

/** A path and query of a URL, for a Browser. */
export const pathOf = (url: string | URL) => {
  const u = new URL(url, 'http://localhost:3000');
  return `${u.pathname}${u.search}`;
};

/**
 * Follows the provider's redirects from an authorize URL with a browser until the consent page (answers
 * its interaction id) or the app's redirect URI (answers that URL).
 */
export async function follow(browser: Browser, start: string, redirectUri: string) {
  let url = pathOf(start);
  for (let step = 0; step < 8; step++) {
    const answer = await browser.get(url);
    const location = answer.headers.location ? String(answer.headers.location) : undefined;
    if (!location) return { answer };
    const next = new URL(location, 'http://localhost:3000');
    if (next.href.startsWith(redirectUri)) return { callback: next };
    if (next.pathname === '/authorization')
      return { interaction: next.searchParams.get('interaction') ?? '' };
    url = pathOf(next);
  }
  throw new Error('too many redirects');
}
