import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Clock } from '../../lib/test-clock';
import { webSuccess } from '../../protocol';
import { CommonQuery, FORM, webResponses } from '../../schemas/common';

/**
 * POST /dev/clock: moves the server's clock forward and runs the erasure job, for end-to-end tests of
 * the cooling-off period. Registered only with TEST_CLOCK=on (loopback origins only, src/config.ts).
 */
const clockRoutes: FastifyPluginAsyncTypebox<{ clock: Clock }> = async (app, { clock }) => {
  app.post(
    '/dev/clock',
    {
      schema: {
        summary: 'Move the test clock forward and run the erasure job (TEST_CLOCK=on only)',
        tags: ['dev'],
        consumes: FORM,
        querystring: CommonQuery,
        body: Type.Object(
          { advance_ms: Type.Integer({ minimum: 0, maximum: 10 * 365 * 86_400_000 }) },
          { additionalProperties: true },
        ),
        response: webResponses(Type.Object({ now: Type.Integer(), erased: Type.Integer() })),
      },
    },
    async (request) => {
      clock.advance(request.body.advance_ms);
      const erased = await app.eraseDueAccounts();
      return webSuccess({ now: clock.now(), erased: erased.length });
    },
  );
};

export default clockRoutes;
