import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';
import fp from 'fastify-plugin';
import type { CaptchaProviderConfig } from '../../config';

/**
 * Security headers on every response: a strict CSP with `frame-ancestors 'none'`, nosniff, a
 * same-origin referrer policy, HSTS behind https. Auth responses are never cached.
 *
 * The header set does not depend on the request, so it is computed once at start: helmet runs once, on
 * a throwaway Fastify instance, with exactly these options, and the headers it sets are copied onto
 * every reply by one synchronous hook. (`@fastify/helmet` registered directly rebuilds helmet's
 * middleware and re-parses the CSP on every request: about a fifth of a session check's CPU time.)
 * Routes still override a header by setting it themselves (the challenge script's
 * cross-origin-resource-policy, the swagger UI's CSP).
 */
export async function securityHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  let captured: [string, string][] = [];
  probe.get('/', (_request, reply) => {
    // Only helmet's onRequest hooks have run: what is on the raw response is exactly its header set.
    captured = Object.entries(reply.raw.getHeaders()).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : String(value),
    ]);
    return '';
  });
  await probe.inject('/');
  await probe.close();
  if (!captured.some(([name]) => name === 'content-security-policy')) {
    throw new Error('helmet set no content-security-policy header');
  }
  return captured;
}

/**
 * What a challenge provider's widget needs beyond 'self', as each one documents it: Turnstile a script
 * and a frame from challenges.cloudflare.com; hCaptcha scripts, frames, styles and requests from
 * hcaptcha.com and its subdomains; GeeTest v4 (which names no list) its scripts, styles, pictures and
 * requests from geetest.com's hosts. The script's own origin always joins (a self-hosted copy, a test).
 */
export function providerSources(
  provider: CaptchaProviderConfig | undefined,
): Partial<Record<'scriptSrc' | 'frameSrc' | 'styleSrc' | 'connectSrc' | 'imgSrc', string[]>> {
  if (!provider) return {};
  const own = new URL(provider.scriptUrl).origin;
  const hosts = {
    turnstile: ['https://challenges.cloudflare.com'],
    hcaptcha: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    geetest: ['https://*.geetest.com'],
  }[provider.name];
  const all = [...new Set([own, ...hosts])];
  if (provider.name === 'turnstile') return { scriptSrc: all, frameSrc: all };
  if (provider.name === 'hcaptcha') return { scriptSrc: all, frameSrc: all, styleSrc: all, connectSrc: all };
  return { scriptSrc: all, styleSrc: all, connectSrc: all, imgSrc: all };
}

export default fp(async (app) => {
  // Without a provider the pages load nothing from elsewhere: helmet's defaults stand. With one, its
  // hosts join the directives it needs, after what helmet's defaults already allow there.
  const defaults = helmet.contentSecurityPolicy.getDefaultDirectives() as Record<string, Iterable<string>>;
  const extra = Object.fromEntries(
    Object.entries(providerSources(app.config.captchaProvider)).map(([directive, sources]) => {
      const name = directive.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      return [directive, [...new Set([...(defaults[name] ?? ["'self'"]), ...sources])]];
    }),
  );
  const headers = await securityHeaders({
    global: true,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        upgradeInsecureRequests: null,
        ...extra,
      },
    },
    strictTransportSecurity: app.config.publicOrigin.startsWith('https:') ? { maxAge: 31536000 } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  const count = headers.length;

  app.addHook('onRequest', (request, reply, done) => {
    for (let i = 0; i < count; i++) {
      const header = headers[i] as [string, string];
      reply.header(header[0], header[1]);
    }
    // The API docs set their own caching; everything else (auth responses) is never stored.
    if (!request.url.startsWith('/docs')) reply.header('cache-control', 'no-store');
    done();
  });
});
