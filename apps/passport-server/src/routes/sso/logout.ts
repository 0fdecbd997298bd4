import { signOut } from '../../flows/sign-out';
import { paths } from '../../protocol';
import { CommonQuery, FORM } from '../../schemas/common';
import { LogoutBody, LogoutData } from '../../schemas/logout';
import { flowRoute } from '../declare';

/** POST logout of the sso flavour and the legacy root (GET logout: routes/web/logout). */
export const ssoLogout = flowRoute({
  method: 'POST',
  schema: {
    summary: 'Sign out: kills the session and answers the validated next address',
    tags: ['account'],
    consumes: FORM,
    querystring: CommonQuery,
    body: LogoutBody,
  },
  data: LogoutData,
  at: [
    ['sso', paths.sso.logout],
    ['legacy', paths.legacy.logout],
  ],
  run: (app, request, reply) => {
    const { next, subject_aid } = request.query as { next?: unknown; subject_aid?: unknown };
    const subject = typeof subject_aid === 'string' ? subject_aid : request.body.subject_aid;
    return signOut(app, request, reply, next ?? request.body.next, subject);
  },
});
