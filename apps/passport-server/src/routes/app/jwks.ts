import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { jwksSchema } from '../../schemas/app';

/** Where product back ends fetch the user-token keys (RFC 8414's well-known location). */
export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * GET /.well-known/jwks.json: the public halves of the signing keys (retired-but-valid, active, next).
 * Public and cacheable for 5 minutes: the next key is published a whole rotation before it signs.
 */
const jwks: FastifyPluginAsyncTypebox = async (app) => {
  app.get(JWKS_PATH, { schema: jwksSchema }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return app.userTokens.jwks();
  });
};

export default jwks;
