import { codeSignIn } from '../../flows/code-sign-in';
import { passwordSignIn } from '../../flows/password-sign-in';
import { paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  emailCodeLoginSchema,
  emailPasswordLoginSchema,
  passwordLoginSchema,
  smsLoginOnlySchema,
  smsLoginSchema,
} from '../../schemas/login';
import { flowRoute } from '../declare';

/** SMS code sign-in (or sign-up): sms_login, the sso flavour's, the legacy quick_login and mobile's. */
export const smsLogin = flowRoute({
  method: 'POST',
  schema: smsLoginSchema,
  data: AccountInfo,
  at: [
    ['web', paths.web.smsLogin],
    ['sso', paths.sso.smsLogin],
    ['legacy', paths.legacy.quickLogin],
    ['mobile', paths.mobile.smsLogin],
  ],
  run: (app, request, reply) => {
    const { mobile, code, type } = request.body;
    return codeSignIn(app, request, reply, 'sms', { to: mobile, code, type });
  },
});

/** sms_login_only: existing accounts only. */
export const smsLoginOnly = flowRoute({
  method: 'POST',
  schema: smsLoginOnlySchema,
  data: AccountInfo,
  at: [['web', paths.web.smsLoginOnly]],
  run: (app, request, reply) => {
    const { mobile, code, type } = request.body;
    return codeSignIn(app, request, reply, 'smsOnly', { to: mobile, code, type });
  },
});

/** email/code_login (the sso flavour's takes `ect_type` too: routes/sso/login). */
export const emailCodeLogin = flowRoute({
  method: 'POST',
  schema: emailCodeLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.emailCodeLogin]],
  run: (app, request, reply) => {
    const { email, code, type } = request.body;
    return codeSignIn(app, request, reply, 'email', { to: email, code, type });
  },
});

/** Password sign-in: user/login, the sso flavour's, the legacy account_login, mobile/login and open/account. */
export const passwordLogin = flowRoute({
  method: 'POST',
  schema: passwordLoginSchema,
  data: AccountInfo,
  at: [
    ['web', paths.web.userLogin],
    ['sso', paths.sso.userLogin],
    ['legacy', paths.legacy.accountLogin],
    ['mobile', paths.mobile.login],
    ['open', paths.open.account],
  ],
  run: (app, request, reply) => passwordSignIn(app, request, reply, request.body),
});

/** email/login: a password sign-in by e-mail (the same flow and failure counters as user/login). */
export const emailPasswordLogin = flowRoute({
  method: 'POST',
  schema: emailPasswordLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.emailLogin]],
  run: (app, request, reply) => {
    const { email, password } = request.body;
    return passwordSignIn(app, request, reply, { email, password });
  },
});
