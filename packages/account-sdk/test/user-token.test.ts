import { beforeEach, describe, expect, it } from 'vitest';
import { clearUserToken, createAccountClient, getUserToken, logout, sendMobileCode } from '../src';
import { CodeType, ErrorCode } from '../src/protocol';
import { cookieJar } from './support/cookie-jar';
import { json, usePassport } from './support/passport-server';

const passport = usePassport();
let minted = 0;
let clock = 1_000_000;
beforeEach(() => {
  minted = 0;
  passport.handle((request, res) => {
    if (request.path !== '/GetUserToken') return json(res, { message: 'success', data: {} });
    minted += 1;
    // A token that lives 300 s from the test's clock; the JWT is opaque to the cache.
    return json(res, {
      message: 'success',
      data: { token: `jwt-${minted}`, token_type: 'Bearer', expires_in: 300, expires_at: clock + 300_000 },
    });
  });
});

const client = () => createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar() });
const now = () => clock;
const mints = () => passport.requests.filter((r) => r.path === '/GetUserToken');

describe('getUserToken', () => {
  it('mints once and hands out the cached token until shortly before it expires', async () => {
    const c = client();
    expect((await getUserToken(c, { now })).token).toBe('jwt-1');
    clock += 250_000; // 50 s left: more than the default 30 s
    expect((await getUserToken(c, { now })).token).toBe('jwt-1');
    clock += 25_000; // 25 s left
    expect((await getUserToken(c, { now })).token).toBe('jwt-2');
    expect(mints()).toHaveLength(2);
    expect(mints()[0]!.method).toBe('POST');
  });

  it('shares one request between concurrent callers, and caches per audience', async () => {
    const c = client();
    const tokens = await Promise.all([
      getUserToken(c, { now }),
      getUserToken(c, { now }),
      getUserToken(c, { now }),
    ]);
    expect(new Set(tokens.map((t) => t.token))).toEqual(new Set(['jwt-1']));
    await getUserToken(c, { now, aud: 'billing' });
    expect(mints()).toHaveLength(2);
    expect(mints()[1]!.form.get('aud')).toBe('billing');
  });

  it('drops the cache on any state-changing call (a sign-in or sign-out changes who the token names)', async () => {
    const c = client();
    await getUserToken(c, { now });
    await sendMobileCode(c, { mobile: '+8613800000000', type: CodeType.mobileLogin });
    expect((await getUserToken(c, { now })).token).toBe('jwt-2');
    await logout(c); // a GET, as the spec has it
    expect((await getUserToken(c, { now })).token).toBe('jwt-3');
    clearUserToken(c);
    expect((await getUserToken(c, { now })).token).toBe('jwt-4');
  });

  it('does not cache a failure', async () => {
    const c = client();
    passport.handle((_, res) =>
      json(res, { message: 'error', data: { error_code: ErrorCode.notLoggedIn, description: 'sign in' } }),
    );
    await expect(getUserToken(c, { now })).rejects.toMatchObject({ error_code: ErrorCode.notLoggedIn });
    await expect(getUserToken(c, { now })).rejects.toMatchObject({ error_code: ErrorCode.notLoggedIn });
    expect(mints()).toHaveLength(2);
  });
});
