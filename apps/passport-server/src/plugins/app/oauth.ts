import fp from 'fastify-plugin';
import { createProviders, type Provider, type ProviderName } from '../../domain/oauth/providers';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured third-party sign-in providers (src/domain/oauth/providers). */
    oauthProviders: Partial<Record<ProviderName, Provider>>;
  }
}

/** Decorates the instance with the third-party sign-in providers of the configuration. */
export default fp(
  async (app) => {
    app.decorate('oauthProviders', createProviders(app.config.oauth));
  },
  { name: 'oauth' },
);
