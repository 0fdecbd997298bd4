import fp from 'fastify-plugin';
import { createUserTokens, type UserTokens } from '../../domain/tokens/user-tokens';

declare module 'fastify' {
  interface FastifyInstance {
    userTokens: UserTokens;
  }
}

/** Decorates the instance with the userTokens service (src/domain/tokens). */
export default fp(
  async (app) => {
    app.decorate('userTokens', createUserTokens(app));
  },
  { name: 'tokens', dependencies: ['db', 'secret'] },
);
