import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';
import fp from 'fastify-plugin';

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

export default fp(async (app) => {
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
