import fp from 'fastify-plugin';
import { createWaitlist, type Waitlist } from '../../domain/waitlist/waitlist';

declare module 'fastify' {
  interface FastifyInstance {
    waitlist: Waitlist;
  }
}

/** The waitlist (issue 18): its service, and its guard on every account creation (WAITLIST=on). */
export default fp(
  async (app) => {
    const waitlist = createWaitlist(app);
    app.decorate('waitlist', waitlist);
    app.accounts.guards.push((identifier, db) => waitlist.claim(identifier, db));
  },
  { name: 'waitlist', dependencies: ['db', 'accounts', 'delivery', 'secret'] },
);
