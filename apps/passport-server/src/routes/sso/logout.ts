import { signOut, subjectAidOf } from '../../flows/sign-out';
import { paths } from '../../protocol';
import { FORM } from '../../schemas/common';
import { LogoutBody, LogoutData, LogoutQuery } from '../../schemas/logout';
import { flowRoute } from '../declare';

/** POST logout of the sso flavour and the legacy root (GET logout: routes/web/logout). */
export const ssoLogout = flowRoute({
  method: 'POST',
  schema: {
    summary: 'Sign out: kills the session and answers the validated next address',
    tags: ['account'],
    consumes: FORM,
    querystring: LogoutQuery,
    body: LogoutBody,
  },
  data: LogoutData,
  at: [
    ['sso', paths.sso.logout],
    ['legacy', paths.legacy.logout],
  ],
  run: (app, request, reply) => {
    const { next, subject_aid } = request.query;
    return signOut(
      app,
      request,
      reply,
      next ?? request.body.next,
      subjectAidOf(subject_aid, request.body.subject_aid),
    );
  },
});
