import type { FastifyPluginAsync } from 'fastify';
import tickets from '../plugins/app/tickets';
import verificationTickets from '../plugins/app/verification-tickets';
import { AFF_ROUTES } from './aff';
import { type FlowRoute, registerFlowRoutes, rowsOf } from './declare';
import { resetPassword } from './legacy/reset-password';
import { DEVELOPER_APP_ROUTES } from './open/developer-apps';
import { OPEN_AUTH_ROUTES } from './open/open-auth';
import {
  checkDefaultInfoRoute,
  defaultAvatarsRoute,
  defaultBackgroundsRoute,
  downloadImageRoute,
  downloadImageV2Route,
  pendingPicsRoute,
  recommendNameRoute,
  remainUpdateTimesRoute,
  reviewPicRoute,
  updateLanguageRoute,
  updateUserInfoRoute,
} from './profile/profile';
import uploads from './profile/uploads';
import { checkLogin } from './sso/check-login';
import { ssoEmailCodeLogin } from './sso/login';
import { ssoLogout } from './sso/logout';
import { sendMobileCode } from './sso/send-code';
import { accountInfo } from './web/account';
import { accountActivityRoute, operatorAuditRoute } from './web/activity';
import {
  cancelCheckRoute,
  cancelConfirmRoute,
  cancelExportRoute,
  cancelRequestRoute,
  cancelVerifyWayRoute,
} from './web/cancel';
import { checkEmailRegistered, checkMobileRegistered } from './web/check-registered';
import { ENTERPRISE_SSO_ROUTES } from './web/enterprise-sso';
import { FACTOR_ROUTES } from './web/factors';
import {
  accountSet,
  accountVerify,
  authVerify,
  emailBind,
  emailChange,
  mobileBind,
  mobileChange,
} from './web/identifiers';
import { emailCodeLogin, emailPasswordLogin, passwordLogin, smsLogin, smsLoginOnly } from './web/login';
import { logout, logoutLink } from './web/logout';
import { operatorConsoleRoutes } from './web/operator-console';
import {
  apiKeyCreateRoute,
  apiKeyListRoute,
  apiKeyRevokeRoute,
  apiKeyRotateRoute,
} from './web/operator-keys';
import { operatorWebhookRoutes, organisationWebhookRoutes } from './web/operator-webhooks';
import { PASSKEY_ROUTES } from './web/passkeys';
import {
  emailChangePassword,
  emailPasswordReset,
  emailPasswordResetAndLogin,
  passwordChange,
  passwordHasSet,
  passwordHasSetPost,
  passwordReset,
  passwordResetByEmailTicket,
  passwordResetByTicket,
  passwordSet,
  passwordUpdate,
} from './web/password';
import { qrCheck, qrConfirm, qrConfirmByTicket, qrGet, qrScan, qrVerifyScan, qrWebLogin } from './web/qr';
import {
  emailRegister,
  emailRegisterConfirm,
  emailRegisterConfirmPage,
  emailRegisterV2,
  emailRegisterVerify,
  emailRegisterVerifyLogin,
  mobileEmailRegister,
  mobileRegister,
} from './web/register';
import { deviceForget, deviceList, smsLoginContinue } from './web/second-verify';
import { emailSendCode, webSendCode } from './web/send-code';
import { signInChangeDisown, signInChangeList } from './web/sign-in-changes';
import { THIRD_PARTY_ROUTES } from './web/third-party';
import { emailCheckCode, mobileCheckCode } from './web/verify';
import { loginSuccess, wapLogin } from './web/wap-login';

/**
 * Every flow route of the web, sso, legacy root, mobile and passport families, each declared once
 * (routes/declare) in the folder of the family it belongs to and answering at the rows it lists.
 */
const FLOW_ROUTES: readonly FlowRoute[] = [
  webSendCode,
  emailSendCode,
  sendMobileCode,
  smsLogin,
  smsLoginOnly,
  emailCodeLogin,
  ssoEmailCodeLogin,
  passwordLogin,
  emailPasswordLogin,
  accountInfo,
  checkLogin,
  logoutLink,
  logout,
  ssoLogout,
  mobileCheckCode,
  emailCheckCode,
  mobileRegister,
  mobileEmailRegister,
  emailRegister,
  emailRegisterConfirmPage,
  emailRegisterConfirm,
  emailRegisterV2,
  emailRegisterVerify,
  emailRegisterVerifyLogin,
  passwordReset,
  emailPasswordReset,
  emailPasswordResetAndLogin,
  passwordResetByTicket,
  passwordResetByEmailTicket,
  passwordChange,
  emailChangePassword,
  passwordUpdate,
  passwordSet,
  passwordHasSet,
  passwordHasSetPost,
  resetPassword,
  checkMobileRegistered,
  checkEmailRegistered,
  smsLoginContinue,
  deviceList,
  deviceForget,
  accountActivityRoute,
  signInChangeList,
  signInChangeDisown,
  operatorAuditRoute,
  apiKeyCreateRoute,
  apiKeyListRoute,
  apiKeyRevokeRoute,
  apiKeyRotateRoute,
  // Identifiers and binding (issue 14 part 2).
  mobileBind,
  mobileChange,
  emailBind,
  emailChange,
  authVerify,
  accountVerify,
  accountSet,
  ...THIRD_PARTY_ROUTES,
  // Passkeys (docs/factors.md).
  ...PASSKEY_ROUTES,
  // Enterprise single sign-on (docs/enterprise-sso.md).
  ...ENTERPRISE_SSO_ROUTES,
  // QR sign-in (#15)
  qrGet,
  qrCheck,
  qrScan,
  qrConfirm,
  qrVerifyScan,
  qrConfirmByTicket,
  qrWebLogin,
  wapLogin,
  loginSuccess,
  // #12 organisations: the affiliate family and member switch
  ...AFF_ROUTES,
  // Profiles and cancellation (issue 17); the two upload routes are in ./profile/uploads.
  updateUserInfoRoute,
  updateLanguageRoute,
  remainUpdateTimesRoute,
  checkDefaultInfoRoute,
  defaultAvatarsRoute,
  defaultBackgroundsRoute,
  recommendNameRoute,
  reviewPicRoute,
  pendingPicsRoute,
  downloadImageRoute,
  downloadImageV2Route,
  cancelVerifyWayRoute,
  cancelCheckRoute,
  cancelRequestRoute,
  cancelConfirmRoute,
  cancelExportRoute,
  // Open authorization (issue 16): the /passport/open/ facade and sms/authorize.
  ...OPEN_AUTH_ROUTES,
  // The developer console: the apps a person registers for open authorization.
  ...DEVELOPER_APP_ROUTES,
  // Authenticator apps and recovery codes (docs/factors.md).
  ...FACTOR_ROUTES,
  // Webhook endpoints: the deployment's for operators, an organisation's for its manager.
  ...operatorWebhookRoutes,
  ...organisationWebhookRoutes,
  // The admin console: the management API's operations with an operator's session as the caller.
  ...operatorConsoleRoutes,
];

/**
 * The rows outside the web family, for the README and the tests: which path answers which flow in
 * which envelope (the sso flavour, the legacy root paths, the mobile family and account/info v2).
 */
export const FAMILY_ROUTES = rowsOf(FLOW_ROUTES).filter((row) => row.family !== 'web');

/** Registers every flow route; verify tickets serve these routes only. */
const families: FastifyPluginAsync = async (app) => {
  await app.register(tickets);
  await app.register(verificationTickets);
  registerFlowRoutes(app, FLOW_ROUTES);
  await app.register(uploads);
};

export default families;
