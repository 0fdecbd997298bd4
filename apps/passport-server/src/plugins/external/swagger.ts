import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

/** The OpenAPI document, generated from the route schemas, at /docs/openapi.json; the UI at /docs. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portico passport server',
        description:
          'Every endpoint the Portico account SDK calls. POST bodies are form-encoded; state-changing requests need the `x-tt-passport-csrf-token` header copied from the `passport_csrf_token` cookie.',
        version: '0.1.0',
      },
      servers: [{ url: app.config.publicOrigin }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: false },
  });
  app.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
