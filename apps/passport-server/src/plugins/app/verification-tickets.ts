import fp from 'fastify-plugin';
import {
  createVerificationTickets,
  type VerificationTickets,
} from '../../domain/verification-tickets/verification-tickets';

declare module 'fastify' {
  interface FastifyInstance {
    verificationTickets: VerificationTickets;
  }
}

/** Decorates the instance with the verification tickets (src/domain/verification-tickets). */
export default fp(
  async (app) => {
    app.decorate('verificationTickets', createVerificationTickets(app));
  },
  { name: 'verification-tickets', dependencies: ['db', 'secret'] },
);
