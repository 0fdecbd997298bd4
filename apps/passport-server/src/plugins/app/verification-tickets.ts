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
    // An erased account keeps no ticket it earned.
    app.cancellation.addEraser({
      key: 'verification_tickets',
      erase: async (trx, userId) => {
        await trx.deleteFrom('verification_tickets').where('user_id', '=', userId).execute();
      },
    });
  },
  { name: 'verification-tickets', dependencies: ['db', 'secret', 'cancellation'] },
);
