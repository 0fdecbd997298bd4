import fp from 'fastify-plugin';
import { type Codes, createCodes } from '../../domain/codes/codes';

declare module 'fastify' {
  interface FastifyInstance {
    codes: Codes;
  }
}

/** Decorates the instance with the codes service (src/domain/codes). */
export default fp(
  async (app) => {
    app.decorate('codes', createCodes(app));
  },
  { name: 'codes', dependencies: ['db', 'store', 'secret', 'delivery'] },
);
