import cors from '@fastify/cors';
import fp from 'fastify-plugin';
import { CSRF_HEADER, LOG_ID_HEADER } from '../../protocol';

/** CORS for the allow-listed origins only (PUBLIC_ORIGIN and ALLOWED_ORIGINS), with credentials. */
export default fp(async (app) => {
  const allowed = new Set([app.config.publicOrigin, ...app.config.allowedOrigins]);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type', CSRF_HEADER, 'traceparent', 'x-tt-passport-sign', 'x-tt-trace-id'],
    exposedHeaders: [LOG_ID_HEADER],
    maxAge: 600,
  });
});
