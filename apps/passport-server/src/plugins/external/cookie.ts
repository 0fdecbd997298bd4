import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';

/** Cookie parsing and setting; no signing (sessions are opaque random tokens looked up server-side). */
export default fp(async (app) => {
  await app.register(cookie, { hook: 'onRequest' });
});
