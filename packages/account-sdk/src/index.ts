/**
 * `@portico/account-sdk`: a framework-free account client. Create one client, then call any passport
 * call by purpose with it: `await smsLogin(client, { mobile, code })`. Each call is its own export, so
 * a page carries only the calls it imports. The shared protocol tables are `@portico/account-sdk/protocol`.
 */
export * from './calls/account';
export * from './calls/bind';
export * from './calls/codes';
export type { AccountData, Call, CallArgs, CallMethod } from './calls/define-call';
export { defineCall } from './calls/define-call';
export * from './calls/devices';
export * from './calls/enterprise-sso';
export * from './calls/factors';
export * from './calls/legacy';
export * from './calls/login';
export * from './calls/mobile';
export * from './calls/open';
export * from './calls/passkeys';
export * from './calls/password';
export * from './calls/profile';
export * from './calls/qrcode';
export * from './calls/register';
export * from './calls/third-party';
export { createAccountClient } from './client/create-account-client';
export type {
  AccountClient,
  AccountClientOptions,
  CallOptions,
  CookieDocument,
  HttpMethod,
  RequestConfig,
  RequestOptions,
  Signer,
} from './client/types';
export {
  AccountError,
  type AccountErrorInit,
  type AccountErrorKind,
  isAccountError,
} from './errors/account-error';
export { waitForFingerprint } from './fingerprint/wait-for-fingerprint';
export { isDottedHostName, webIdCookie } from './fingerprint/web-id-cookie';
export type { CodeChannel, CodeProof, TicketAnswer } from './flows/channel';
export { createState, type Observable } from './flows/observable';
export {
  createQrLogin,
  type PageVisibility,
  type QrLoginClock,
  type QrLoginFlow,
  type QrLoginOptions,
  type QrLoginSnapshot,
  type QrLoginStatus,
} from './flows/qr-login';
export {
  createRegistration,
  type RegisterValues,
  type Registration,
  type RegistrationSnapshot,
  type RegistrationStep,
  registerWithTicket,
  type TicketRegistration,
  verifyRegisterCode,
} from './flows/register';
export { resetPasswordWithCode, resetPasswordWithTicket, verifyResetCode } from './flows/reset-password';
export {
  type CooldownClock,
  cooldownOf,
  createSendCode,
  DEFAULT_CODE_COOLDOWN,
  type SendCodeAnswer,
  type SendCodeFlow,
  type SendCodeOptions,
  type SendCodeSnapshot,
  type SendCodeTarget,
  sendCode,
} from './flows/send-code';
export type {
  AccountCall,
  AccountHooks,
  AccountPlugin,
  AfterResponseHook,
  BeforeErrorHook,
  BeforeRequestHook,
  BeforeRetryHook,
  RetryPatch,
} from './hooks/types';
export { type CookieJar, type CookieJarOptions, createCookieJar } from './node/cookie-jar';
export {
  type ChallengeCaptcha,
  type ChallengeOptions,
  type ChallengeOutcome,
  type ChallengeShowSettings,
  challengePlugin,
} from './plugins/challenge';
export {
  type SecondVerifyAnswer,
  type SecondVerifyContext,
  type SecondVerifyDialog,
  type SecondVerifyOptions,
  type SecondVerifyRequest,
  secondVerifyPlugin,
} from './plugins/second-verify';
export {
  type StepUpDialog,
  type StepUpOptions,
  type StepUpProof,
  type StepUpRequest,
  stepUpPlugin,
} from './plugins/step-up';
export type * from './protocol/types';
export * from './redirects/navigate';
export * from './redirects/urls';
export { accountCall } from './transport/send';
export {
  clearUserToken,
  type GetUserTokenOptions,
  getUserToken,
  requestUserToken,
} from './user-token/get-user-token';
