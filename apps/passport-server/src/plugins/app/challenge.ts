import fp from 'fastify-plugin';
import { type Challenges, createChallenges } from '../../domain/challenge/challenges';

declare module 'fastify' {
  interface FastifyInstance {
    challenge: Challenges;
  }
}

/** Decorates the instance with the challenge service (src/domain/challenge). */
export default fp(
  async (app) => {
    app.decorate('challenge', createChallenges(app));
    app.addHook('onClose', async () => app.challenge.pool.close());
  },
  { name: 'challenge', dependencies: ['store', 'secret', 'sessions', 'csrf'] },
);
