import formbody from '@fastify/formbody';
import fp from 'fastify-plugin';

/**
 * application/x-www-form-urlencoded bodies, as the SDK sends them. `text/plain` is not parsed at all
 * (415): a cross-site form can send it without a preflight (fastify CVE-2022-41919).
 */
export default fp(async (app) => {
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  app.removeContentTypeParser('text/plain');
});
