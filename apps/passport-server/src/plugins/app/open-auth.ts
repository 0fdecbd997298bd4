import fp from 'fastify-plugin';
import { createOpenAuth, type OpenAuth } from '../../domain/open-auth/provider';

declare module 'fastify' {
  interface FastifyInstance {
    /** Open authorization: the OpenID provider for third-party apps (src/domain/open-auth). */
    openAuth: OpenAuth;
  }
}

/** Decorates the instance with the open-authorization provider. */
export default fp(
  async (app) => {
    app.decorate('openAuth', createOpenAuth(app));
  },
  { name: 'open-auth', dependencies: ['db', 'secret', 'tokens'] },
);
