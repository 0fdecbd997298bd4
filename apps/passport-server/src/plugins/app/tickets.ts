import fp from 'fastify-plugin';
import { createTickets, type Tickets } from '../../domain/tickets/tickets';

declare module 'fastify' {
  interface FastifyInstance {
    tickets: Tickets;
  }
}

/** Decorates the instance with the tickets service (src/domain/tickets). */
export default fp(
  async (app) => {
    app.decorate('tickets', createTickets(app));
  },
  { name: 'tickets', dependencies: ['db', 'secret'] },
);
