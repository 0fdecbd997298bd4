import { operationRoute } from '../../adapters/operation-route';
import { proveCode } from '../../flows/code-sign-in';
import { answerSignIn } from '../../flows/complete-sign-in';
import { provePassword } from '../../flows/password-sign-in';
import {
  signInByEmailCode,
  signInByEmailPassword,
  signInByMobileCode,
  signInByPassword,
} from '../../operations/sign-in/credentials';
import { paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  emailCodeLoginSchema,
  emailPasswordLoginSchema,
  passwordLoginSchema,
  smsLoginOnlySchema,
  smsLoginSchema,
} from '../../schemas/login';

/** SMS code sign-in (or sign-up): sms_login, the sso flavour's, the legacy quick_login and mobile's. */
export const smsLogin = operationRoute(signInByMobileCode, {
  method: 'POST',
  schema: smsLoginSchema,
  data: AccountInfo,
  at: [
    ['web', paths.web.smsLogin],
    ['sso', paths.sso.smsLogin],
    ['legacy', paths.legacy.quickLogin],
    ['mobile', paths.mobile.smsLogin],
  ],
  principal: (app, request, { mobile, code, type }) =>
    proveCode(app, request, 'sms', { to: mobile, code, type }),
  after: answerSignIn,
});

/** sms_login_only: existing accounts only. */
export const smsLoginOnly = operationRoute(signInByMobileCode, {
  method: 'POST',
  schema: smsLoginOnlySchema,
  data: AccountInfo,
  at: [['web', paths.web.smsLoginOnly]],
  principal: (app, request, { mobile, code, type }) =>
    proveCode(app, request, 'smsOnly', { to: mobile, code, type }),
  after: answerSignIn,
});

/** email/code_login (the sso flavour's takes `ect_type` too: routes/sso/login). */
export const emailCodeLogin = operationRoute(signInByEmailCode, {
  method: 'POST',
  schema: emailCodeLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.emailCodeLogin]],
  principal: (app, request, { email, code, type }) =>
    proveCode(app, request, 'email', { to: email, code, type }),
  after: answerSignIn,
});

/** Password sign-in: user/login, the sso flavour's, the legacy account_login, mobile/login and open/account. */
export const passwordLogin = operationRoute(signInByPassword, {
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
  principal: (app, request, body) => provePassword(app, request, body),
  after: answerSignIn,
});

/** email/login: a password sign-in by e-mail (the same flow and failure counters as user/login). */
export const emailPasswordLogin = operationRoute(signInByEmailPassword, {
  method: 'POST',
  schema: emailPasswordLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.emailLogin]],
  principal: (app, request, { email, password }) => provePassword(app, request, { email, password }),
  after: answerSignIn,
});
