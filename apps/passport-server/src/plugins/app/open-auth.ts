import fp from 'fastify-plugin';
import { addOpenAuthCancelRules } from '../../domain/open-auth/cancellation';
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
    addOpenAuthCancelRules(app.cancellation);
    // The signing keys exist before the first request: a request to the provider never creates them
    // (the route inventory checks that a refused or read-only request changes no state).
    app.addHook('onReady', async () => {
      await app.userTokens.keyRing.active();
    });
  },
  { name: 'open-auth', dependencies: ['db', 'secret', 'tokens', 'cancellation'] },
);
