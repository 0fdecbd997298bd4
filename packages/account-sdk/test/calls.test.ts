import { describe, expect, it } from 'vitest';
import * as sdk from '../src';
import { CodeType, DEFAULTS, paths } from '../src/protocol';
import { recordingClient } from './support/recording-client';

type AnyCall = (client: sdk.AccountClient, payload?: object, options?: sdk.CallOptions) => Promise<unknown>;
const call = (name: string) => (sdk as unknown as Record<string, AnyCall>)[name]!;
const { web, passport, legacy, mobile, sso, profile, download } = paths;

/** [export, path, method, spec defaults] for every call the web, legacy, mobile and sso families make. */
const table: [string, string, 'GET' | 'POST', Record<string, unknown>?][] = [
  ['sendMobileCode', web.sendCode, 'POST'],
  ['sendEmailCode', web.emailSendCode, 'POST'],
  ['validateCode', web.validateCode, 'POST'],
  ['verifyEmailCode', web.emailVerify, 'POST'],
  ['checkMobileCode', web.mobileCheckCode, 'POST'],
  ['checkEmailCode', web.emailCheckCode, 'POST'],
  ['checkMobileRegistered', web.userCheckMobileRegistered, 'POST'],
  ['checkEmailRegistered', web.userCheckEmailRegistered, 'POST'],
  ['smsLogin', web.smsLogin, 'POST', { need_frozen_user: 0 }],
  ['smsLoginOnly', web.smsLoginOnly, 'POST', { need_frozen_user: 0 }],
  ['smsLoginContinue', web.smsLoginContinue, 'POST'],
  ['emailCodeLogin', web.emailCodeLogin, 'POST', { need_frozen_user: 0 }],
  ['emailLogin', web.emailLogin, 'POST', { need_frozen_user: 0 }],
  ['emailRegisterVerifyLogin', web.emailRegisterVerifyLogin, 'POST', { need_frozen_user: 0 }],
  ['oauthLogin', web.authLoginOnly, 'POST', { need_frozen_user: 0 }],
  ['authBindLogin', web.authBindLogin, 'POST', { need_frozen_user: 0 }],
  ['mobileBindLogin', web.mobileBindLogin, 'POST', { need_frozen_user: 0 }],
  ['shareLogin', web.authShareLogin, 'POST'],
  ['webLogin', web.webLogin, 'POST'],
  ['checkLogin', legacy.checkLogin, 'GET'],
  ['logout', web.logout, 'GET', { next: '/', not_redirect: 1 }],
  ['verifyEmailRegisterCode', web.emailRegisterVerify, 'POST', { type: 1 }],
  ['registerByEmail', web.emailRegisterV2, 'POST'],
  ['registerByMobile', passport.mobileRegister, 'POST'],
  ['registerOnlyUser', passport.mobileEmailRegister, 'POST'],
  ['registerWithoutVerify', web.emailRegister, 'POST'],
  ['getQrcode', web.getQrcode, 'GET', { next: '/' }],
  ['checkQrcode', web.checkQrconnect, 'GET'],
  ['scanQrcode', web.scanQrcode, 'POST'],
  ['confirmQrcode', web.confirmQrcode, 'POST'],
  ['verifyScanQrcode', passport.qrcodeScanQrcode, 'POST'],
  ['confirmQrcodeByTicket', passport.qrcodeConfirmByTicket, 'POST'],
  ['resetPassword', web.passwordReset, 'POST'],
  ['resetPasswordByEmail', web.emailPasswordReset, 'POST'],
  ['resetPasswordByTicket', web.passwordResetByTicket, 'POST'],
  ['resetPasswordByEmailTicket', web.passwordResetByEmailTicket, 'POST'],
  ['changePassword', web.passwordChange, 'POST'],
  ['changePasswordByEmail', web.emailChangePassword, 'POST'],
  ['updatePassword', web.passwordUpdate, 'POST'],
  ['setPassword', web.passwordSet, 'POST'],
  ['hasSetPassword', web.passwordHasSet, 'GET'],
  ['emailResetAndLogin', web.emailPasswordResetAndLogin, 'POST'],
  ['bindMobile', web.mobileBind, 'POST', { kick_other: 0 }],
  ['changeMobile', web.mobileChange, 'POST', { kick_other: 0, change_bind: 0 }],
  ['bindEmail', web.emailBind, 'POST', { kick_other: 0 }],
  ['changeEmail', web.emailChange, 'POST', { kick_other: 0 }],
  ['bindAuth', web.authBind, 'POST', { unbind_exist: 0 }],
  ['unbindAuth', web.authUnbind, 'POST'],
  ['switchAuthBind', web.authSwitchBind, 'POST', { unbind_exist: 0 }],
  ['accountInfo', web.accountInfo, 'GET'],
  ['accountInfoV2', passport.accountInfoV2, 'GET'],
  ['setAccount', passport.accountSet, 'POST'],
  ['verifyAccount', web.accountVerify, 'POST', { user_login_version: 1 }],
  ['verifyAuth', web.authVerify, 'POST'],
  ['smsAuthorize', web.smsAuthorize, 'POST'],
  ['showOauthMobile', passport.authShowOauthMobile, 'GET'],
  ['cancelVerifyWay', passport.authCancelVerifyWay, 'GET'],
  ['cancelCheck', web.cancelCheck, 'GET'],
  ['cancelConfirm', web.cancelConfirm, 'POST'],
  ['cancelRequest', passport.cancelRequest, 'POST'],
  ['switchMember', passport.memberSwitch, 'POST'],
  ['getOauthProfile', profile.getOauthProfile, 'GET'],
  ['uploadAvatar', profile.updateUploadAvatar, 'POST'],
  ['updateUserInfo', profile.updateUserInfo, 'POST'],
  ['checkDefaultInfo', profile.checkDefaultInfo, 'GET', { scene: 'normal' }],
  ['defaultBackgroundImages', profile['settings{aid}DefaultBackgroundImageList'], 'GET'],
  ['defaultAvatars', profile['settings{aid}DefaultAvatarList'], 'GET'],
  ['recommendName', profile.settingsRecommendName, 'GET'],
  ['uploadPic', profile.uploadPic, 'POST'],
  ['remainUpdateTimes', profile.getRemainUpdateTimes, 'GET'],
  ['downloadImage', download.image, 'GET'],
  ['downloadImageV2', download.imageV2, 'GET'],
  ['legacySendActivationCode', legacy.sendActivationCode, 'POST'],
  ['quickLogin', legacy.quickLogin, 'POST', { need_frozen_user: 0 }],
  ['legacyAccountLogin', legacy.accountLogin, 'POST', { need_frozen_user: 0 }],
  ['legacyLogout', legacy.logout, 'GET', { next: '/', not_redirect: 1 }],
  ['legacyGetQrcode', legacy.getQrcode, 'GET', { next: '/' }],
  ['legacyCheckQrcode', legacy.checkQrconnect, 'GET'],
  ['legacyResetPassword', legacy.resetPassword, 'POST'],
  ['legacyBindMobile', legacy.bindMobile, 'POST', { kick_other: 0 }],
  ['legacyChangeMobile', legacy.changeMobile, 'POST', { kick_other: 0, change_bind: 0 }],
  ['mobileSendCode', mobile.sendCode, 'POST'],
  ['mobileSmsLogin', mobile.smsLogin, 'POST', { need_frozen_user: 0 }],
  ['mobilePasswordLogin', mobile.login, 'POST', { need_frozen_user: 0 }],
  ['mobileCheckCode', mobile.checkCode, 'POST'],
  ['mobileBind', mobile.bind, 'POST', { kick_other: 0 }],
  ['mobileChange', mobile.change, 'POST', { kick_other: 0, change_bind: 0 }],
  ['mobileResetPassword', mobile.resetPassword, 'POST'],
];

describe('every call by purpose', () => {
  it.each(table)('%s goes to %s by %s with the spec defaults', async (name, path, method, defaults = {}) => {
    const r = recordingClient();
    await call(name)(r.client, { account: 'a', marker: 1 });
    expect(path).toMatch(/^\//);
    expect(r.last).toMatchObject({ path, method, envelope: 'web', data: { ...defaults, marker: 1 } });
  });

  it('lets the payload override a default', async () => {
    const r = recordingClient();
    await sdk.smsLogin(r.client, { mobile: '1', code: '2', need_frozen_user: 1 });
    expect(r.last.data).toMatchObject({ need_frozen_user: 1 });
  });

  it('takes the spec defaults from the protocol DEFAULTS', () => {
    expect([DEFAULTS.needFrozenUser, DEFAULTS.next, DEFAULTS.kickOther, DEFAULTS.unbindExist]).toEqual([
      0,
      '/',
      0,
      0,
    ]);
  });

  it('passes per-call options (signal, timeout, query, headers) through', async () => {
    const r = recordingClient();
    const signal = new AbortController().signal;
    await sdk.accountInfo(r.client, {}, { signal, timeout: 10, query: { q: 1 }, headers: { h: 'v' } });
    expect(r.last).toMatchObject({ signal, timeout: 10, query: { q: 1 }, headers: { h: 'v' } });
  });

  it('sends uploads as multipart', async () => {
    const r = recordingClient();
    await sdk.uploadAvatar(r.client, { avatar: new Blob(['x']) });
    expect(r.last.multipart).toBe(true);
  });
});

describe('the sso flavour', () => {
  const ssoRoutes: [string, string][] = [
    ['sendMobileCode', sso.sendCode],
    ['sendEmailCode', sso.emailSendCode],
    ['smsLogin', sso.smsLogin],
    ['emailCodeLogin', sso.emailCodeLogin],
    ['passwordLogin', sso.userLogin],
    ['checkLogin', sso.checkLogin],
    ['logout', sso.logout],
    ['accountInfo', sso.accountInfo],
    ['getQrcode', sso.getQrcode],
    ['checkQrcode', sso.checkQrconnect],
  ];

  it.each(ssoRoutes)('routes %s to %s with the sso envelope', async (name, path) => {
    const r = recordingClient('sso');
    await call(name)(r.client, { account: 'a', password: 'p' });
    expect(r.last).toMatchObject({ path, envelope: 'sso' });
  });

  it('sends the e-mail code purpose as ect_type', async () => {
    const r = recordingClient('sso');
    await sdk.sendEmailCode(r.client, { email: 'a@b.c', type: CodeType.emailLogin });
    expect(r.last.data).toEqual({ email: 'a@b.c', ect_type: 13 });
  });

  it('keeps the web path and web envelope for calls without an sso variant', async () => {
    const r = recordingClient('sso');
    await sdk.bindMobile(r.client, { mobile: '1', code: '2' });
    expect(r.last).toMatchObject({ path: web.mobileBind, envelope: 'web' });
  });

  it('sends type (not ect_type) from a web client', async () => {
    const r = recordingClient();
    await sdk.sendEmailCode(r.client, { email: 'a@b.c', type: CodeType.emailLogin });
    expect(r.last.data).toEqual({ email: 'a@b.c', type: 13 });
  });
});

describe('password login', () => {
  it.each(['email', 'username', 'mobile', 'account'])('signs in with a password and a %s', async (field) => {
    const r = recordingClient();
    await sdk.passwordLogin(r.client, { [field]: 'x', password: 'p' } as sdk.PasswordLoginPayload);
    expect(r.last).toMatchObject({
      path: web.userLogin,
      data: { [field]: 'x', password: 'p', need_frozen_user: 0 },
    });
  });

  it('rejects with no message, and sends nothing, when no identifier is given', async () => {
    const r = recordingClient();
    const error = await sdk
      .passwordLogin(r.client, { password: 'p' } as unknown as sdk.PasswordLoginPayload)
      .catch((e: unknown) => e);
    expect(sdk.isAccountError(error, 'invalid')).toBe(true);
    expect(error).toMatchObject({ description: '', error_code: -1 });
    expect(r.sent).toHaveLength(0);
  });
});

describe('OAuth login', () => {
  it('uses the login-only endpoint by default and does not send login_only', async () => {
    const r = recordingClient();
    await sdk.oauthLogin(r.client, { platform_app_id: 1, code: 'c', redirect_uri: 'https://a/cb' });
    expect(r.last.path).toBe(web.authLoginOnly);
    expect(r.last.data).toEqual({
      platform_app_id: 1,
      code: 'c',
      redirect_uri: 'https://a/cb',
      need_frozen_user: 0,
    });
  });

  it('uses the full login endpoint with login_only false', async () => {
    const r = recordingClient();
    await sdk.oauthLogin(r.client, { platform_app_id: 1, code: 'c', login_only: false });
    expect(r.last.path).toBe(web.authLogin);
  });
});

describe('defineCall', () => {
  it('declares a call on any family for other packages (affiliate-sdk)', async () => {
    const affiliatePaths = { invite: '/passport/aff/web/invite/' } as const;
    const invite = sdk.defineCall<{ mobile: string }, { invite_id: number }, typeof affiliatePaths.invite>(
      affiliatePaths.invite,
      { mobile: '0' },
    );
    const r = recordingClient();
    await invite(r.client, { mobile: '1' });
    expect(r.last).toMatchObject({
      path: '/passport/aff/web/invite/',
      method: 'POST',
      data: { mobile: '1' },
    });
  });
});

describe('the call declarations’ payload defaults', () => {
  it('are the protocol’s DEFAULTS, written as literals so a page keeps only the calls it imports', async () => {
    const d = await import('../src/calls/defaults');
    const { DEFAULTS, EmailCodeType } = await import('../src/protocol');
    expect(d.frozen).toEqual({ need_frozen_user: DEFAULTS.needFrozenUser });
    expect(d.nextRoot).toEqual({ next: DEFAULTS.next });
    expect(d.logoutByRequest).toEqual({ next: DEFAULTS.next, not_redirect: 1 });
    expect(d.kick).toEqual({ kick_other: DEFAULTS.kickOther });
    expect(d.rebind).toEqual({ kick_other: DEFAULTS.kickOther, change_bind: DEFAULTS.changeBind });
    expect(d.unbind).toEqual({ unbind_exist: DEFAULTS.unbindExist });
    expect(d.normalScene).toEqual({ scene: DEFAULTS.scene });
    expect(d.emailRegisterType).toEqual({ type: EmailCodeType.register });
    expect(d.appFormat).toEqual({ response_format_type: DEFAULTS.responseFormatType });
  });
});
