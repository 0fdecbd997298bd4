import fp from 'fastify-plugin';
import { createRisk, type Risk } from '../../domain/risk/risk';

declare module 'fastify' {
  interface FastifyInstance {
    risk: Risk;
  }
}

/** Decorates the instance with the risk service (src/domain/risk). */
export default fp(
  async (app) => {
    app.decorate('risk', createRisk(app));
  },
  { name: 'risk', dependencies: ['store', 'challenge'] },
);
