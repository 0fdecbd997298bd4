import fp from 'fastify-plugin';
import { createSessions, type Session, type Sessions } from '../../domain/sessions/sessions';
import { callbackHook } from '../../lib/hooks';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: Sessions;
  }
  interface FastifyRequest {
    session: Session | null;
  }
}

/** Decorates the instance with the session service and resolves each request's session cookie. */
export default fp(
  async (app) => {
    const { sessions, resolve } = createSessions(app);
    app.decorate('sessions', sessions);
    app.decorateRequest('session', null);
    // On SQLite's fast path the lookup does not wait, so the hook does not either (lib/hooks).
    app.addHook('onRequest', callbackHook(resolve));
  },
  { name: 'sessions', dependencies: ['db'] },
);
