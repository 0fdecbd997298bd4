import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireSession } from '../../domain/sessions/sessions';
import { PassportError } from '../../errors';
import { paths, webSuccess } from '../../protocol';
import { getUserTokenSchema } from '../../schemas/app';
import { bodyMayBeAbsent } from './no-body';

/**
 * POST /GetUserToken: a short-lived JWT for the signed-in user. POST with the CSRF check although it
 * changes no state: the answer is a bearer credential, so a foreign page must not be able to have a
 * browser mint one (even if a CORS mistake ever let it read the answer), and it never sits in a URL,
 * a history entry, a prefetch or a shared cache. The answer is `no-store` like every auth response.
 */
const userToken: FastifyPluginAsyncTypebox = async (app) => {
  const { audiences } = app.userTokens.settings;
  app.post(
    paths.app.GetUserToken,
    {
      schema: getUserTokenSchema,
      config: { envelope: 'app' },
      preValidation: bodyMayBeAbsent,
    },
    async (request) => {
      const { user } = requireSession(request);
      if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
      const audience = request.body?.aud ?? audiences[0];
      if (audience === undefined || !audiences.includes(audience))
        throw new PassportError('invalidParam', { field: 'aud' });
      const issued = await app.userTokens.issue(user, audience);
      return webSuccess({
        token: issued.token,
        token_type: 'Bearer' as const,
        expires_in: issued.expiresIn,
        expires_at: issued.expiresAt,
      });
    },
  );
};

export default userToken;
