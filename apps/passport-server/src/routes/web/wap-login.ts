import { Type } from 'typebox';
import { loginSuccessTarget, wapLoginTarget } from '../../flows/wap-login';
import { paths } from '../../protocol';
import { loginSuccessSchema, wapLoginSchema } from '../../schemas/wap-login';
import { flowRoute } from '../declare';

/** The wap login's two browser redirects (flows/wap-login, docs/app-bridge.md). */

const REDIRECT = { 302: Type.Null({ description: 'redirect' }) };

export const wapLogin = flowRoute({
  method: 'GET',
  schema: wapLoginSchema,
  data: Type.Object({}),
  responses: REDIRECT,
  at: [['passport', paths.passport.authWapLogin]],
  run: async (app, request, reply) => {
    await reply.redirect(wapLoginTarget(app, request.query), 302);
    return undefined;
  },
});

export const loginSuccess = flowRoute({
  method: 'GET',
  schema: loginSuccessSchema,
  data: Type.Object({}),
  responses: REDIRECT,
  at: [['passport', paths.passport.authLoginSuccess]],
  run: async (app, request, reply) => {
    await reply.redirect(loginSuccessTarget(app, request, request.query), 302);
    return undefined;
  },
});
