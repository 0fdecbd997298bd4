import { describe, expect, it } from 'vitest';
import {
  AFFILIATE_PREFIX,
  appPaths,
  downloadPaths,
  legacyPaths,
  mobilePaths,
  openPaths,
  passportPaths,
  pathKey,
  paths,
  profilePaths,
  ssoPaths,
  vcPaths,
  webPaths,
} from '../../src/protocol';

/** Web passport paths the spec names none of: the audit log's reads (docs/audit-log.md). */
const PORTICO_WEB_NAMES = [
  'account/activity',
  // Recent changes to sign-in methods and "this wasn't me" (docs/security.md).
  'account/sign_in_changes',
  'account/sign_in_changes/disown',
  'operator/audit',
  // Authenticator apps and recovery codes (docs/factors.md).
  'factor/list',
  'totp/start',
  'totp/confirm',
  'totp/remove',
  'recovery_code/generate',
  // The management API's keys, made by operators (docs/management-api.md).
  'operator/api_keys/create',
  'operator/api_keys/list',
  'operator/api_keys/revoke',
  'operator/api_keys/rotate',
];

/** The web passport path names of spec §7, copied verbatim. */
const SPEC_WEB_NAMES = [
  'send_code',
  'email/send_code',
  'validate_code',
  'email/verify',
  'mobile/check_code',
  'email/check_code',
  'sms_login',
  'sms_login_only',
  'sms_login_continue',
  'email/login',
  'email/code_login',
  'email/register_verify_login',
  'email/register_verify',
  'user/login',
  'auth/login',
  'auth/login_only',
  'auth/bind_login',
  'mobile/bind_login',
  'logout',
  'get_qrcode',
  'check_qrconnect',
  'scan_qrcode',
  'confirm_qrcode',
  'web_login',
  'auth/share_login',
  'email/register',
  'email/register/v2',
  'mobile/bind',
  'email/bind',
  'auth/bind',
  'auth/unbind',
  'auth/switch_bind',
  'mobile/change',
  'email/change',
  'password/reset',
  'email/password/reset',
  'password/reset_by_ticket',
  'password/reset_by_email_ticket',
  'password/change',
  'password/update',
  'email/change_password',
  'password/set',
  'password/has_set',
  'email/password/reset_and_login',
  'account/verify',
  'auth/verify',
  'sms/authorize',
  'cancel/check',
  'cancel/confirm',
  'user/check_mobile_registered',
  'user/check_email_registered',
  'account/info',
  // Not in spec §7: remembered devices of second verification (issue 4, item 4).
  'device/list',
  'device/forget',
];

/** The legacy root examples of spec §7. */
const SPEC_LEGACY_PATHS = [
  '/send_activation_code/',
  '/quick_login/',
  '/account_login/',
  '/check_login/',
  '/logout/',
  '/get_qrcode/',
  '/reset_password/',
  '/bind_mobile/',
  '/change_mobile/',
];

/** The app API names from the error-reporting configuration (spec §7). */
const SPEC_APP_NAMES = [
  'CheckLogin',
  'Logout',
  'GetUserToken',
  'GetUserInfo',
  'CheckWaitListEnable',
  'SubmitWaitList',
  'Login',
];

const FAMILY_PREFIXES: Record<keyof typeof paths, string> = {
  web: '/passport/web/',
  passport: '/passport/',
  mobile: '/passport/mobile/',
  legacy: '/',
  sso: '/passport/sso/',
  open: '/passport/open/',
  profile: '/web/user/',
  download: '/user/web/download/',
  vc: '/vc/',
  monitor: '/',
  app: '/',
};

const values = (family: object): string[] => Object.values(family) as string[];

describe('paths', () => {
  it.each(SPEC_WEB_NAMES)(
    'has the web passport path %s under /passport/web/ with a trailing slash',
    (name) => {
      expect(values(webPaths)).toContain(`/passport/web/${name}/`);
    },
  );

  it('has exactly the web passport paths the spec lists, and the audit log reads, no more', () => {
    expect(values(webPaths).sort()).toEqual(
      [...SPEC_WEB_NAMES, ...PORTICO_WEB_NAMES].map((n) => `/passport/web/${n}/`).sort(),
    );
  });

  it.each(SPEC_WEB_NAMES)('keys the web path %s by its camelCase name', (name) => {
    expect((webPaths as Record<string, string>)[pathKey(name)]).toBe(`/passport/web/${name}/`);
  });

  it('derives camelCase keys by splitting on slashes and underscores', () => {
    expect(pathKey('send_code')).toBe('sendCode');
    expect(pathKey('email/send_code')).toBe('emailSendCode');
    expect(pathKey('email/register/v2')).toBe('emailRegisterV2');
    expect(pathKey('user/check_mobile_registered')).toBe('userCheckMobileRegistered');
    expect(pathKey('logout')).toBe('logout');
  });

  it('keys the {aid} profile paths the way their types say (regression: the run time kept a slash)', () => {
    expect(profilePaths['settings{aid}DefaultAvatarList']).toBe(
      '/web/user/settings/{aid}/default_avatar_list/',
    );
    expect(profilePaths['settings{aid}DefaultBackgroundImageList']).toBe(
      '/web/user/settings/{aid}/default_background_image_list/',
    );
    for (const key of Object.keys(profilePaths)) expect(key).not.toContain('/');
  });

  describe.each(Object.entries(paths))('the %s family', (name, family) => {
    const prefix = FAMILY_PREFIXES[name as keyof typeof paths];

    it('is not empty', () => {
      expect(Object.keys(family).length).toBeGreaterThan(0);
    });

    it(`puts every path under its prefix`, () => {
      for (const path of values(family)) expect(path.startsWith(prefix), path).toBe(true);
    });

    it('keys every path by the camelCase of its name after the prefix', () => {
      for (const [key, path] of Object.entries(family)) {
        const name = (path as string).slice(prefix.length).replace(/\/$/, '');
        expect(key, path as string).toBe(pathKey(name));
      }
    });

    it('has no two names that collide on one key', () => {
      const keys = Object.keys(family);
      expect(new Set(keys).size).toBe(keys.length);
      // A collision would silently drop a path: every key must map to a distinct path.
      expect(new Set(values(family)).size).toBe(keys.length);
    });

    it('uses keys that are plain identifiers (letters, digits, the {aid} placeholder)', () => {
      for (const key of Object.keys(family)) expect(key).toMatch(/^[A-Za-z][A-Za-z0-9{}]*$/);
    });
  });

  it('ends every passport, legacy, profile and download path with a slash', () => {
    for (const family of [
      webPaths,
      passportPaths,
      mobilePaths,
      legacyPaths,
      ssoPaths,
      openPaths,
      profilePaths,
    ]) {
      for (const path of values(family)) expect(path.endsWith('/'), path).toBe(true);
    }
    for (const path of values(downloadPaths)) expect(path.endsWith('/'), path).toBe(true);
  });

  it.each(SPEC_LEGACY_PATHS)('has the legacy root path %s', (path) => {
    expect(values(legacyPaths)).toContain(path);
  });

  it.each(SPEC_APP_NAMES)('has the app API name /%s without a trailing slash, keyed by itself', (name) => {
    expect((appPaths as Record<string, string>)[name]).toBe(`/${name}`);
  });

  it('has exactly the app API names of the spec', () => {
    expect(Object.keys(appPaths).sort()).toEqual([...SPEC_APP_NAMES].sort());
  });

  it('has the challenge settings path /vc/setting', () => {
    expect(vcPaths.setting).toBe('/vc/setting');
  });

  it('has the other passport paths the spec names', () => {
    for (const path of [
      '/passport/mobile_email_register/',
      '/passport/mobile/register/',
      '/passport/auth/show_oauth_mobile/',
      '/passport/account/info/v2/',
      '/passport/auth/cancel_verify_way/',
    ]) {
      expect(values(passportPaths)).toContain(path);
    }
  });

  it('has the two-step QR verify (scan, then confirm by ticket)', () => {
    expect(values(passportPaths).some((p) => p.endsWith('/scan_qrcode/'))).toBe(true);
    expect(values(passportPaths).some((p) => p.endsWith('/confirm_by_ticket/'))).toBe(true);
  });

  it('has the open auth_info/v2 and open send_code paths', () => {
    expect(openPaths.authInfoV2).toBe('/passport/open/auth_info/v2/');
    expect(openPaths.sendCode).toBe('/passport/open/send_code/');
  });

  it('has the profile paths of spec §7', () => {
    for (const name of [
      'get/oauth_profile',
      'update/upload_avatar',
      'update/user_info',
      'check/default_info',
      'settings/{aid}/default_background_image_list',
      'settings/{aid}/default_avatar_list',
      'settings/recommend_name',
      'upload/pic',
      'get/remain_update_times',
    ]) {
      expect(values(profilePaths)).toContain(`/web/user/${name}/`);
    }
  });

  it('has the image download path and its v2', () => {
    expect(downloadPaths.image).toBe('/user/web/download/image/');
    expect(downloadPaths.imageV2).toBe('/user/web/download/image/v2/');
  });

  it('names the affiliate family prefix /passport/aff/web/', () => {
    expect(AFFILIATE_PREFIX).toBe('/passport/aff/web/');
  });

  it('gives every path to exactly one family', () => {
    const seen = new Map<string, string>();
    for (const [name, family] of Object.entries(paths)) {
      for (const path of values(family)) {
        expect(seen.get(path), `${path} in ${name} and ${seen.get(path)}`).toBeUndefined();
        seen.set(path, name);
      }
    }
  });
});
