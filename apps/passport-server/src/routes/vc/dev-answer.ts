import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PassportError } from '../../errors';
import { webSuccess } from '../../protocol';
import { devAnswerSchema } from '../../schemas/vc';

/**
 * GET /dev/challenge/answer?challenge_id=…: the expected answer of a challenge's current puzzle, so
 * browser tests can act as a person. Registered only when the dev outbox is the delivery provider.
 */
const devAnswer: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/dev/challenge/answer', { schema: devAnswerSchema }, async (request) => {
    const answer = await app.challenge.answerOf(request.query.challenge_id);
    if (!answer) throw new PassportError('challengeExpired');
    return webSuccess({ answer });
  });
};

export default devAnswer;
