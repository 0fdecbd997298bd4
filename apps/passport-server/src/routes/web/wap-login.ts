import { loginSuccessTarget, wapLoginTarget } from '../../flows/wap-login';
import { paths } from '../../protocol';
import { loginSuccessSchema, wapLoginSchema } from '../../schemas/wap-login';
import { redirectRoute } from '../declare';

/** The wap login's two browser redirects (flows/wap-login, docs/app-bridge.md). */

export const wapLogin = redirectRoute({
  schema: wapLoginSchema,
  at: [['passport', paths.passport.authWapLogin]],
  description: 'redirect',
  to: (app, request) => wapLoginTarget(app, request.query),
});

export const loginSuccess = redirectRoute({
  schema: loginSuccessSchema,
  at: [['passport', paths.passport.authLoginSuccess]],
  description: 'redirect',
  to: (app, request) => loginSuccessTarget(app, request, request.query),
});
