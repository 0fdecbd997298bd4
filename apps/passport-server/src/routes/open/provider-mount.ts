import { errorCodes, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import { OPEN_AUTH_MOUNT, type PorticoRequest } from '../../domain/open-auth/provider';
import { signOut } from '../../flows/sign-out';
import { apiNotFound } from '../../http/error-handler';
import { paths } from '../../protocol';

/** The provider's endpoints (its default routes, with the features configured in domain/open-auth/provider). */
const PROVIDER_PATHS =
  /^\/(auth(\/[A-Za-z0-9_-]{1,64})?|token|token\/revocation|token\/introspection|me|reg|jwks|request|session\/end(\/confirm|\/success)?|device(\/auth|\/[A-Za-z0-9_-]{1,64})?|\.well-known\/openid-configuration)$/;

/** The provider's discovery document, and the places stock clients look for it. */
const DISCOVERY = '/.well-known/openid-configuration';
/**
 * The issuer is PUBLIC_ORIGIN/oauth; its OpenID document is at the issuer + DISCOVERY. Beside it, only
 * the locations derived from that issuer: RFC 8414 §3's (the well-known name inserted before the
 * issuer's path) and the same insertion for the OpenID name, which MCP-style clients try. The
 * origin-level documents (`/.well-known/openid-configuration` alone) are not served: they would name
 * an issuer other than their own location, which a client rightly rejects.
 */
export const DISCOVERY_ALIASES = [
  `/.well-known/oauth-authorization-server${OPEN_AUTH_MOUNT}`,
  `${DISCOVERY}${OPEN_AUTH_MOUNT}`,
] as const;

/**
 * Mounts the OpenID provider (a Koa application) under /oauth, plus the discovery aliases. Only these
 * routes hand the request to it: every other route never runs the provider. The provider reads its
 * own bodies, so this scope has no body parser; the scheme, host and client address it sees come from
 * PUBLIC_ORIGIN and Fastify (TRUST_PROXY), never from the request's Host or X-Forwarded-* headers.
 */
const providerMount: FastifyPluginAsync = async (app) => {
  const origin = new URL(app.config.publicOrigin);
  app.removeAllContentTypeParsers();
  // The body stays unread for the provider, but one declared past the body limit is refused here with
  // the same 413 envelope as everywhere else (the fuzz suite's oversized bodies), not passed on or 404'd.
  app.addContentTypeParser('*', (request, _payload, done) => {
    const declared = Number(request.headers['content-length']);
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    if (Number.isFinite(declared) && declared > limit)
      return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return done(null, undefined);
  });

  async function handOver(request: FastifyRequest, reply: FastifyReply, path: string) {
    const provider = await app.openAuth.provider();
    const raw = request.raw as PorticoRequest & { originalUrl?: string };
    const query = raw.url?.includes('?') ? raw.url.slice(raw.url.indexOf('?')) : '';
    raw.originalUrl = `${OPEN_AUTH_MOUNT}${path}${query}`;
    raw.url = `${path}${query}`;
    raw.headers.host = origin.host;
    raw.headers['x-forwarded-host'] = origin.host;
    raw.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
    raw.headers['x-forwarded-for'] = request.ip;
    raw.porticoUserId = request.session?.userId ?? null;
    // The end-session endpoint's confirmation ends the Portico session as well (domain/open-auth/provider);
    // the reply is hijacked, so the cookie that clears it is handed back as Set-Cookie values.
    raw.porticoSignOut = async () => {
      const cleared: string[] = [];
      const collector = Object.create(reply, {
        clearCookie: {
          value: (name: string, options: Record<string, unknown>) => {
            cleared.push(app.serializeCookie(name, '', { ...options, expires: new Date(0), maxAge: 0 }));
            return collector;
          },
        },
      }) as FastifyReply;
      await signOut(app, request, collector);
      return cleared;
    };
    // The headers the server's hooks set (security headers, CORS, the log id) go out with the answer.
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.setHeader('cache-control', 'no-store');
    reply.hijack();
    await provider.callback()(raw, reply.raw);
  }

  // Our own answers here (a 404, a failure before the hand-over) are web envelopes; the provider's are RFC 6749.
  const config = { csrf: false };
  app.route({
    method: ['GET', 'POST'],
    url: `${OPEN_AUTH_MOUNT}/*`,
    config,
    handler: (request, reply) => {
      // The wildcard as Fastify matched it (duplicate slashes already folded); anything the provider
      // does not serve is the API's 404 envelope, and the provider is not started for it.
      const path = `/${(request.params as { '*'?: string })['*'] ?? ''}`;
      if (!PROVIDER_PATHS.test(path)) return apiNotFound(request, reply);
      return handOver(request, reply, path);
    },
  });
  // The spec's token path: POST only, so a client secret never travels in a URL (docs/open-authorization.md).
  app.route({
    method: 'POST',
    url: paths.open.oauthToken,
    config,
    handler: (request, reply) => handOver(request, reply, '/token'),
  });
  for (const alias of DISCOVERY_ALIASES) {
    app.route({
      method: 'GET',
      url: alias,
      config,
      handler: (request, reply) => handOver(request, reply, DISCOVERY),
    });
  }
};

export default providerMount;
