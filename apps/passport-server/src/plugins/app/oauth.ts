import fp from 'fastify-plugin';
import { addLinkedIdentityCancelRules } from '../../domain/oauth/cancellation';
import { createProviders, type Provider, type ProviderName } from '../../domain/oauth/providers';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured third-party sign-in providers (src/domain/oauth/providers). */
    oauthProviders: Partial<Record<ProviderName, Provider>>;
  }
}

/** Decorates the instance with the third-party sign-in providers of the configuration; linked identities join cancellation. */
export default fp(
  async (app) => {
    app.decorate('oauthProviders', createProviders(app.config.oauth));
    addLinkedIdentityCancelRules(app.cancellation);
  },
  { name: 'oauth', dependencies: ['cancellation'] },
);
