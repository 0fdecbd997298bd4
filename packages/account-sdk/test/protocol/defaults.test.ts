import { describe, expect, it } from 'vitest';
import {
  BREAKPOINTS,
  CSRF_COOKIE,
  CSRF_HEADER,
  DEFAULTS,
  LOG_ID_HEADER,
  OPEN_AUTH_STATE_MAX_AGE_SECONDS,
  QUERY_DEFAULTS,
  REGIONS,
  SDK_VERSION,
  SESSION_COOKIE,
  TIMEOUTS,
  WEB_ID_COOKIE,
} from '../../src/protocol';

describe('defaults', () => {
  it('sends did and iid "0" as strings', () => {
    expect(DEFAULTS.did).toBe('0');
    expect(DEFAULTS.iid).toBe('0');
  });

  it('chooses region sg out of sg and va', () => {
    expect(REGIONS).toEqual(['sg', 'va']);
    expect(DEFAULTS.region).toBe('sg');
  });

  it('speaks zh by default', () => {
    expect(DEFAULTS.language).toBe('zh');
  });

  it('shows the captcha as a mask, with side slide off', () => {
    expect(DEFAULTS.captchaShowMode).toBe('mask');
    expect(DEFAULTS.captchaSideSlide).toBe(false);
  });

  it('pages from page 1 with 10 a page', () => {
    expect(DEFAULTS.page).toBe(1);
    expect(DEFAULTS.pageSize).toBe(10);
  });

  it('has the payload defaults of spec §5', () => {
    expect(DEFAULTS).toMatchObject({
      needFrozenUser: 0,
      isFrozen: 0,
      unbindExist: 0,
      kickOther: 0,
      changeBind: 0,
      needRedirect: 1,
      next: '/',
      needPlaintext: false,
      responseFormatType: 'app',
      scene: 'normal',
      scopes: 'user_info',
      userIdentityId: '0',
      oauthLoginOnly: true,
      responseType: 'code',
    });
    // The spec's invite_id 0 names no invitation: every call that takes invite_id needs a real one.
    expect(DEFAULTS).not.toHaveProperty('inviteId');
  });

  it('times requests out at 5000 ms, the captcha script at 4000, script fetches at 20000, the fingerprint at 1000', () => {
    expect(TIMEOUTS.request).toBe(5000);
    expect(TIMEOUTS.captchaScriptLoad).toBe(4000);
    expect(TIMEOUTS.scriptFetch).toBe(20000);
    expect(TIMEOUTS.fingerprintWait).toBe(1000);
  });

  it('retries the settings fetch once', () => {
    expect(TIMEOUTS.settingsRetries).toBe(1);
  });

  it('keeps the open-auth state cookie 60 days', () => {
    expect(OPEN_AUTH_STATE_MAX_AGE_SECONDS).toBe(60 * 24 * 60 * 60);
  });

  it('has the fetch-helper defaults: cache 300000 ms, focus refresh 5000 ms, back-off 1 s to 30 s', () => {
    expect(QUERY_DEFAULTS).toEqual({
      cacheTime: 300_000,
      focusRefreshInterval: 5000,
      retryBaseDelay: 1000,
      retryMaxDelay: 30_000,
    });
  });

  it('has the breakpoints xs 0, sm 576, md 768, lg 992, xl 1200', () => {
    expect(BREAKPOINTS).toEqual({ xs: 0, sm: 576, md: 768, lg: 992, xl: 1200 });
  });

  it('names the sdk version 2.0.0', () => {
    expect(SDK_VERSION).toBe('2.0.0');
  });

  it('names the cookies and headers both sides agree on', () => {
    expect(CSRF_COOKIE).toBe('passport_csrf_token');
    expect(CSRF_HEADER).toBe('x-tt-passport-csrf-token');
    expect(LOG_ID_HEADER).toBe('x-tt-logid');
    expect(SESSION_COOKIE).toBe('sessionid');
    expect(WEB_ID_COOKIE).toBe('s_v_web_id');
  });

  it('writes header names in lowercase, as fetch Headers report them', () => {
    expect(CSRF_HEADER).toBe(CSRF_HEADER.toLowerCase());
    expect(LOG_ID_HEADER).toBe(LOG_ID_HEADER.toLowerCase());
  });
});
