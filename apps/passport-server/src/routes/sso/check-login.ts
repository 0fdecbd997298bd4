import { checkLogin as check } from '../../flows/check-login';
import { paths } from '../../protocol';
import { CheckLoginData } from '../../schemas/app';
import { CommonQuery } from '../../schemas/common';
import { flowRoute } from '../declare';

/** check_login of the sso flavour and the legacy root: whether the request carries a session. */
export const checkLogin = flowRoute({
  method: 'GET',
  schema: {
    summary: 'Whether the request carries a valid session (never an error when it does not)',
    tags: ['account'],
    querystring: CommonQuery,
  },
  data: CheckLoginData,
  at: [
    ['sso', paths.sso.checkLogin],
    ['legacy', paths.legacy.checkLogin],
  ],
  run: async (_app, request) => check(request),
});
