import { defineCall } from '../calls/define-call';
import type { AccountClient } from '../client/types';
import type { AccountPlugin } from '../hooks/types';
import type { UserTokenData } from '../protocol/types';
import { accountCall } from '../transport/send';

/** `POST /GetUserToken`: mints a product token for the signed-in person, for `aud` (else the first audience the server knows). */
export const requestUserToken = /* @__PURE__ */ defineCall<{ aud?: string }, UserTokenData>('/GetUserToken');

export interface GetUserTokenOptions {
  /** The audience (one of the server's USER_TOKEN_AUDIENCES). Default: the server's first. */
  aud?: string;
  /**
   * A cached token is handed out only while it has at least this many seconds left; else a new one is
   * minted. Default 30.
   */
  minValiditySeconds?: number;
  /** Milliseconds since the epoch, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  token: Promise<UserTokenData>;
  /** `expires_at` of the token once it arrived (ms since the epoch). */
  expiresAt?: number;
}

const caches = new WeakMap<AccountClient, Map<string, Entry>>();

/** A call that may change who is signed in: every POST but the mint, and the logouts (GETs in the spec). */
const changesSession = (method: string, path: string) =>
  (method === 'POST' && path !== '/GetUserToken') || path.endsWith('/logout/');

/**
 * Drops a client's cached tokens whenever it sends a call that may change the session (a sign-in,
 * sign-out, identity switch or cancellation changes who the token would name, and a token that
 * outlived its session must not be handed out). Over-clearing costs one extra mint.
 */
const clearOnStateChange = (cache: Map<string, Entry>): AccountPlugin => ({
  name: 'portico:user-token',
  setup: () => ({
    beforeRequest: [
      (state) => {
        const { config } = accountCall(state);
        if (changesSession(config.method, config.path)) cache.clear();
      },
    ],
  }),
});

function cacheOf(client: AccountClient): Map<string, Entry> {
  let cache = caches.get(client);
  if (!cache) {
    cache = new Map();
    caches.set(client, cache);
    client.use(clearOnStateChange(cache));
  }
  return cache;
}

/**
 * The product token for the signed-in person, for your own back end to verify with the server's JWKS
 * (`/.well-known/jwks.json`). Cached per client and audience until `minValiditySeconds` before it
 * expires; concurrent callers share one request; any state-changing call through the client (a
 * sign-in, a sign-out) drops the cache. Times: `expires_at` is in milliseconds since the epoch, like
 * `Date.now()`; the JWT's own `exp` claim is in seconds, as JWTs have it; `expires_in` is in seconds.
 * Rejects with an AccountError (NOT_LOGGED_IN when signed out).
 */
export async function getUserToken(
  client: AccountClient,
  options: GetUserTokenOptions = {},
): Promise<UserTokenData> {
  const { aud, minValiditySeconds = 30, now = Date.now } = options;
  const cache = cacheOf(client);
  const key = aud ?? '';
  const cached = cache.get(key);
  if (cached && (cached.expiresAt === undefined || cached.expiresAt - now() >= minValiditySeconds * 1000))
    return cached.token;
  const entry: Entry = { token: requestUserToken(client, aud === undefined ? {} : { aud }) };
  cache.set(key, entry);
  try {
    const token = await entry.token;
    entry.expiresAt = token.expires_at;
    return token;
  } catch (error) {
    if (cache.get(key) === entry) cache.delete(key);
    throw error;
  }
}

/** Forgets the cached product tokens of a client (e.g. after you signed the person out elsewhere). */
export function clearUserToken(client: AccountClient): void {
  caches.get(client)?.clear();
}
