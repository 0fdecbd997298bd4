import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { PassportError } from '../../errors';
import { webSuccess } from '../../protocol';
import { webResponses } from '../../schemas/common';

/** Where a load balancer or an orchestrator asks after a server (docs/deploying.md). */
export const HEALTH_PATHS = { live: '/livez', ready: '/readyz' } as const;

const probe = (summary: string, data: Record<string, ReturnType<typeof Type.Literal>>) => ({
  summary,
  tags: ['health'],
  // A probe sends no parameters; anything it adds is ignored.
  querystring: Type.Object({}, { additionalProperties: true }),
  response: webResponses(Type.Object(data)),
});

/**
 * `/livez` answers while the process serves at all (restart it when this fails); `/readyz` only while
 * the database and the store answer (send it no traffic otherwise). Both answer 503 once the server is
 * shutting down (Fastify refuses new requests while it closes), so a balancer drains it before it stops.
 */
const health: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    HEALTH_PATHS.live,
    { schema: probe('Liveness: the process answers', { live: Type.Literal(true) }) },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return webSuccess({ live: true as const });
    },
  );
  app.get(
    HEALTH_PATHS.ready,
    {
      schema: probe('Readiness: the database and the store answer', { ready: Type.Literal(true) }),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await sql`select 1`.execute(app.db);
        await app.store.get('health:ready');
      } catch (error) {
        request.log.warn({ err: error }, 'not ready: the database or the store does not answer');
        throw new PassportError('serviceUnavailable');
      }
      return webSuccess({ ready: true as const });
    },
  );
};

export default health;
