import { createSecretKey } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PassportError } from '../../errors';
import { hmac, randomToken, safeEqual } from '../../lib/crypto';
import { callbackHook } from '../../lib/hooks';
import { CSRF_COOKIE, CSRF_HEADER } from '../../protocol';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false exempts a state-changing route from the CSRF check (server-to-server endpoints only). */
    csrf?: boolean;
  }
  interface FastifyRequest {
    /** The pre-session id (before sign-in the CSRF token is bound to it). */
    preSessionId: string | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF, bound to the session: the readable cookie `passport_csrf_token` is HMAC(secret, session id),
 * or HMAC(secret, pre-session id) before sign-in. Every state-changing request must send it back in
 * `x-tt-passport-csrf-token`, and must not come from a foreign origin. A cookie planted by a sibling
 * subdomain does not help an attacker: the header is compared with what the server computes for the
 * request's own session, not with the cookie.
 */
export default fp(
  async (app) => {
    const { config } = app;
    // The HMAC key as a KeyObject, made once: a Buffer key is converted on every HMAC.
    const key = createSecretKey(app.secret);
    const secure = config.publicOrigin.startsWith('https:');
    const preCookie = secure
      ? `${config.cookieDomain ? '__Secure-' : '__Host-'}passport_pre`
      : 'passport_pre';
    const trusted = new Set([config.publicOrigin, ...config.allowedOrigins]);
    const domain = config.cookieDomain ? { domain: config.cookieDomain } : {};

    // Every response computes the token of its session to compare with the browser's cookie; the
    // token is a pure function of the key and the id, so the last few thousand are kept (a session check
    // spent about 5 % of its time on this HMAC), by the id itself, one map per kind of binding, so that
    // a lookup builds no string.
    const RECENT_MAX = 10_000;
    const recentOf = (prefix: string) => {
      const recent = new Map<string, string>();
      return (id: string): string => {
        let value = recent.get(id);
        if (value === undefined) {
          value = hmac(key, prefix + id);
          if (recent.size >= RECENT_MAX) recent.clear();
          recent.set(id, value);
        }
        return value;
      };
    };
    const sessionToken = recentOf('csrf|s|');
    const preSessionToken = recentOf('csrf|p|');
    const tokenFor = (request: FastifyRequest): string | null => {
      if (request.session) return sessionToken(request.session.id);
      if (request.preSessionId) return preSessionToken(request.preSessionId);
      return null;
    };

    // A set-up fault is logged once per origin (per process), naming the setting to change; a flood of
    // foreign origins cannot grow the set past its cap.
    const reported = new Set<string>();
    const reportOnce = (request: FastifyRequest, key: string, message: string) => {
      if (reported.has(key) || reported.size >= 1000) return;
      reported.add(key);
      request.log.warn({ origin: request.headers.origin, reason: key.split('|')[0] }, message);
    };

    /** Refuses a request that a foreign page made the browser send. */
    function checkOrigin(request: FastifyRequest): void {
      const origin = request.headers.origin;
      if (typeof origin === 'string') {
        if (!trusted.has(origin)) {
          reportOnce(
            request,
            `origin|${origin}`,
            `refused a request from ${origin}: it is neither PUBLIC_ORIGIN nor in ALLOWED_ORIGINS; add it to ALLOWED_ORIGINS if an app of yours is served there`,
          );
          throw new PassportError('originNotAllowed', { reason: 'origin' });
        }
        return;
      }
      if (request.headers['sec-fetch-site'] === 'cross-site')
        throw new PassportError('csrfFailed', { reason: 'origin' });
    }

    app.decorateRequest('preSessionId', null);

    /** Throws unless a state-changing request carries the token of its own session. */
    function checkRequest(request: FastifyRequest): void {
      const pre = request.cookies[preCookie];
      if (pre && /^[A-Za-z0-9_-]{22,64}$/.test(pre)) request.preSessionId = pre;
      if (request.is404 || SAFE_METHODS.has(request.method) || request.routeOptions.config.csrf === false)
        return;
      checkOrigin(request);
      const header = request.headers[CSRF_HEADER];
      const expected = tokenFor(request);
      if (typeof header !== 'string' || expected === null || !safeEqual(header, expected)) {
        // An allowed page on another site: its browser withholds our SameSite=Lax cookies from every
        // request it makes, so no reload or retry can pass. Say what to deploy instead.
        if (
          request.headers['sec-fetch-site'] === 'cross-site' &&
          typeof request.headers.origin === 'string'
        ) {
          reportOnce(
            request,
            `site|${request.headers.origin}`,
            `a page at ${request.headers.origin} is on another site than ${config.publicOrigin}: browsers withhold the passport's cookies from it; serve the passport under that site through a reverse proxy (docs/deploying.md)`,
          );
          throw new PassportError('crossSitePage', { reason: 'site' });
        }
        // The browser holds the token cookie but the page sent none: the page cannot read the cookie,
        // which happens when it is served from another host than the cookie's (a stale token, the
        // usual case, arrives as a header that does not match).
        if (header === undefined && request.cookies[CSRF_COOKIE] && request.headers.origin) {
          reportOnce(
            request,
            `cookie|${request.headers.origin}`,
            `a page at ${request.headers.origin} cannot read the ${CSRF_COOKIE} cookie of ${config.publicOrigin}: ` +
              (config.cookieDomain
                ? `COOKIE_DOMAIN=${config.cookieDomain} does not cover that host`
                : 'set COOKIE_DOMAIN to the parent domain both hosts share, or serve the app and the API from one origin through a proxy'),
          );
          throw new PassportError('csrfCookieUnreadable', { reason: 'cookie' });
        }
        throw new PassportError('csrfFailed', { reason: 'token' });
      }
    }

    app.addHook('onRequest', callbackHook(checkRequest));

    const preCookieOptions = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure, ...domain };
    const csrfCookieOptions = { httpOnly: false, sameSite: 'lax' as const, path: '/', secure, ...domain };

    // Every response leaves the browser with a token that matches its current session: a sign-in or
    // sign-out in the handler changes the binding, and the cookie follows. The cookie is only set when
    // the browser's copy is absent or bound to something else; the usual request (its cookie already
    // right) costs one HMAC and no Set-Cookie.
    app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
      if (!request.session && !request.preSessionId) {
        request.preSessionId = randomToken(24);
        reply.setCookie(preCookie, request.preSessionId, preCookieOptions);
      }
      const token = tokenFor(request);
      if (token && request.cookies[CSRF_COOKIE] !== token) {
        reply.setCookie(CSRF_COOKIE, token, csrfCookieOptions);
      }
      done(null, payload);
    });

    /** Checks a state-changing GET (logout) the way POSTs are checked, minus the token. */
    app.decorate('assertSameOrigin', checkOrigin);
  },
  { name: 'csrf', dependencies: ['sessions', 'secret'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    assertSameOrigin(request: FastifyRequest): void;
  }
}
