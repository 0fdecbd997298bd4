import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { assertSessionMeetsSecondFactor } from '../../domain/organisations/second-factor';
import { requireSession } from '../../domain/sessions/sessions';
import { PassportError } from '../../errors';
import { activeIdentity } from '../../flows/identity-sign-in';
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
      const session = requireSession(request);
      const { user } = session;
      if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
      // An organisation identity's token carries it (docs/organisations.md, "Token claims"); a frozen
      // identity or subject gets none.
      const org = await activeIdentity(app, session, { fresh: true });
      if (org?.subject_is_frozen === 1) throw new PassportError('subjectFrozen');
      if (org?.is_frozen === 1) throw new PassportError('memberFrozen');
      // Nor one whose organisation requires a second factor this session has not proved.
      if (org) await assertSessionMeetsSecondFactor(app, session, org.sec_subject_uid);
      const audience = request.body?.aud ?? audiences[0];
      if (audience === undefined || !audiences.includes(audience))
        throw new PassportError('invalidParam', { field: 'aud' });
      const issued = await app.userTokens.issue(
        user,
        audience,
        org && {
          org: {
            subject_uid: org.sec_subject_uid,
            identity_id: org.user_identity_id,
            is_manager: org.is_manager,
            permissions: org.permissions,
          },
        },
      );
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
