import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AccountError,
  accountInfo,
  createAccountClient,
  isAccountError,
  type Signer,
  sendMobileCode,
  smsLogin,
  uploadPic,
} from '../src';
import { CodeType, decodeMixedFields, ErrorCode, mixDecode, SDK_VERSION } from '../src/protocol';
import { cookieJar } from './support/cookie-jar';
import { json, startPassport, usePassport } from './support/passport-server';

const passport = usePassport(() => (_, res) => json(res, { message: 'success', data: { ok: true } }));
afterEach(() => vi.useRealTimers());

const client = (options: Partial<Parameters<typeof createAccountClient>[0]> = {}) =>
  createAccountClient({ aid: 1128, baseUrl: passport.url, document: cookieJar(), ...options });

describe('every request', () => {
  it('carries the common query parameters with the spec defaults', async () => {
    await accountInfo(client({ fingerprint: () => 'verify_fp' }));
    const q = passport.last.query;
    expect(Object.fromEntries([...q].filter(([k]) => k !== 'account_sdk_source_info'))).toEqual({
      aid: '1128',
      account_sdk_source: 'web',
      sdk_version: SDK_VERSION,
      language: 'zh',
      did: '0',
      iid: '0',
      verifyFp: 'verify_fp',
    });
  });

  it('sends the options it is given instead of the defaults', async () => {
    await accountInfo(client({ source: 'app', language: 'en', did: '42', iid: '43' }));
    const q = passport.last.query;
    expect([q.get('account_sdk_source'), q.get('language'), q.get('did'), q.get('iid')]).toEqual([
      'app',
      'en',
      '42',
      '43',
    ]);
  });

  it('sends a mix-encoded environment summary as account_sdk_source_info', async () => {
    await accountInfo(client({ appName: 'portico-test' }));
    const info = JSON.parse(mixDecode(passport.last.query.get('account_sdk_source_info')!));
    expect(info).toMatchObject({ appName: 'portico-test', timezone: expect.any(String) });
  });

  it('copies the passport_csrf_token cookie into the x-tt-passport-csrf-token header', async () => {
    await accountInfo(client({ document: cookieJar({ a: '1', passport_csrf_token: 'tok%2Fen', b: '2' }) }));
    expect(passport.last.headers['x-tt-passport-csrf-token']).toBe('tok/en');
  });

  it('sends no CSRF header when there is no CSRF cookie', async () => {
    await accountInfo(client());
    expect(passport.last.headers).not.toHaveProperty('x-tt-passport-csrf-token');
  });

  it('asks fetch to include credentials', async () => {
    const seen: RequestCredentials[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push((input as Request).credentials);
      return fetch(input, init);
    };
    await accountInfo(client({ fetch: spy }));
    expect(seen).toEqual(['include']);
  });

  it('sends a W3C traceparent with a fresh trace id per call', async () => {
    const c = client();
    await accountInfo(c);
    await accountInfo(c);
    const [a, b] = passport.requests.map((r) => String(r.headers.traceparent));
    expect(a).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(a!.split('-')[1]).not.toBe(b!.split('-')[1]);
  });

  it('adds the signer hook signature as _signature, signing the path, query and body', async () => {
    const signer = vi.fn<Signer>(() => 'sig-1');
    await sendMobileCode(client({ signer }), { mobile: '13800000000', type: CodeType.login });
    expect(passport.last.query.get('_signature')).toBe('sig-1');
    expect(signer).toHaveBeenCalledWith(
      expect.objectContaining({
        method: 'POST',
        url: expect.stringContaining('/passport/web/send_code/?aid=1128'),
      }),
    );
    expect(signer.mock.calls[0]![0].body).toContain('mix_mode=1');
  });
});

describe('POST bodies', () => {
  it('are application/x-www-form-urlencoded, drop undefined fields and mix-encode sensitive ones', async () => {
    await smsLogin(client(), { mobile: '+86 138', code: '1234', extra: undefined, note: 'plain' });
    const { headers, form, query } = passport.last;
    expect(headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(form.has('extra')).toBe(false);
    expect(form.get('note')).toBe('plain');
    expect(form.get('mix_mode')).toBe('1');
    expect(form.get('mobile')).not.toBe('+86 138');
    expect(decodeMixedFields(Object.fromEntries(form))).toMatchObject({ mobile: '+86 138', code: '1234' });
    expect(query.has('mobile')).toBe(false);
  });

  it('send objects as JSON', async () => {
    await smsLogin(client(), { mobile: '1', code: '2', extra: { a: [1] } });
    expect(passport.last.form.get('extra')).toBe('{"a":[1]}');
  });

  it('go multipart for uploads', async () => {
    await uploadPic(client(), { pic: new Blob(['png-bytes'], { type: 'image/png' }), is_sensitive: 1 });
    expect(passport.last.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(passport.last.raw).toContain('png-bytes');
    expect(passport.last.path).toBe('/web/user/upload/pic/');
  });
});

describe('GET calls', () => {
  it('send their payload as query parameters after the common ones', async () => {
    await accountInfo(client(), { probe: 'x' });
    expect(passport.last.method).toBe('GET');
    expect(passport.last.query.get('probe')).toBe('x');
    expect(passport.last.raw).toBe('');
  });

  it("replace {aid} in a path with the client's aid", async () => {
    const c = client();
    await c.request({ path: '/web/user/settings/{aid}/default_avatar_list/', method: 'GET' });
    expect(passport.last.path).toBe('/web/user/settings/1128/default_avatar_list/');
  });
});

describe('responses', () => {
  it('resolve the data field of a success envelope', async () => {
    passport.handle((_, res) => json(res, { message: 'success', data: { user_id: 7 } }));
    await expect(accountInfo(client())).resolves.toEqual({ user_id: 7 });
  });

  it('parse a string body (text/plain, even JSON inside a JSON string) as JSON', async () => {
    passport.handle((_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(JSON.stringify(JSON.stringify({ message: 'success', data: { n: 1 } })));
    });
    await expect(accountInfo(client())).resolves.toEqual({ n: 1 });
  });

  it('reject a failure envelope with an AccountError carrying every data field, the log id and the config', async () => {
    passport.handle((_, res) =>
      json(
        res,
        { message: 'error', data: { error_code: 1301, description: '验证码错误', tries_left: 2 } },
        200,
        'log-42',
      ),
    );
    const error = await smsLogin(client(), { mobile: '1', code: '0' }).catch((e: unknown) => e);
    expect(isAccountError(error, 'response')).toBe(true);
    expect(error).toMatchObject({
      kind: 'response',
      error_code: 1301,
      description: '验证码错误',
      tries_left: 2,
      log_id: 'log-42',
      status: 200,
    });
    const { config, message } = error as AccountError;
    expect(config).toMatchObject({
      method: 'POST',
      path: '/passport/web/sms_login/',
      data: { mobile: '1', code: '0' },
    });
    expect(message).toContain('POST /passport/web/sms_login/');
    expect(message).toContain('log-42');
    expect(Object.keys(error as object)).not.toContain('config');
  });

  it('read an envelope on a protocol violation status (403) as a response failure', async () => {
    passport.handle((_, res) =>
      json(res, { message: 'error', data: { error_code: 1002, description: 'csrf' } }, 403),
    );
    await expect(accountInfo(client())).rejects.toMatchObject({
      kind: 'response',
      error_code: 1002,
      status: 403,
    });
  });

  it('resend once after a CSRF failure that brought a fresh token cookie (a first POST before any GET)', async () => {
    const document = cookieJar();
    const csrfFailed = { message: 'error', data: { error_code: ErrorCode.csrfFailed, description: 'csrf' } };
    passport.handle((request, res) => {
      if (request.headers['x-tt-passport-csrf-token'] !== 'fresh') {
        document.cookie = 'passport_csrf_token=fresh'; // what the browser does with the Set-Cookie
        return json(res, csrfFailed, 403);
      }
      json(res, { message: 'success', data: { sent: true } });
    });
    await expect(sendMobileCode(client({ document }), { mobile: '1', type: 24 })).resolves.toEqual({
      sent: true,
    });
    expect(passport.requests.map((r) => r.headers['x-tt-passport-csrf-token'])).toEqual([undefined, 'fresh']);
  });

  it('not resend a CSRF failure when the token cookie did not change', async () => {
    passport.handle((_, res) =>
      json(res, { message: 'error', data: { error_code: ErrorCode.csrfFailed, description: 'csrf' } }, 403),
    );
    const document = cookieJar({ passport_csrf_token: 'same' });
    await expect(sendMobileCode(client({ document }), { mobile: '1', type: 24 })).rejects.toMatchObject({
      error_code: ErrorCode.csrfFailed,
      status: 403,
    });
    expect(passport.requests).toHaveLength(1);
  });

  it('tell a status failure (non-2xx without an envelope) apart', async () => {
    passport.handle((_, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-tt-logid': 'gw-1' });
      res.end('<h1>Bad gateway</h1>');
    });
    await expect(accountInfo(client())).rejects.toMatchObject({
      kind: 'status',
      status: 502,
      error_code: -1,
      log_id: 'gw-1',
    });
  });

  it('print the x-tt-logid only when printLog is on', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await accountInfo(client());
    expect(log).not.toHaveBeenCalled();
    await accountInfo(client({ printLog: true }));
    expect(log).toHaveBeenCalledWith(expect.stringContaining('x-tt-logid: log-0001'));
    log.mockRestore();
  });
});

describe('network failures', () => {
  it('tell a network error apart, keeping the original failure as cause', async () => {
    const closed = await startPassport();
    const url = closed.url;
    await closed.close();
    const error = await accountInfo(createAccountClient({ aid: 1, baseUrl: url })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', error_code: -1, description: '', log_id: '' });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('tell a timeout apart (the client timeout, or per call)', async () => {
    passport.handle((_, res) => void setTimeout(() => json(res, { message: 'success', data: {} }), 300));
    await expect(accountInfo(client({ timeout: 50 }))).rejects.toMatchObject({ kind: 'timeout' });
    await expect(accountInfo(client(), {}, { timeout: 50 })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('tell an abort by the caller apart', async () => {
    passport.handle((_, res) => void setTimeout(() => json(res, { message: 'success', data: {} }), 300));
    const controller = new AbortController();
    const pending = accountInfo(client(), {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('uses a 5000 ms timeout by default', async () => {
    const seen: (AbortSignal | null)[] = [];
    // ky applies its timeout around fetch; we observe it through the timeout error name instead of waiting 5 s
    const slow: typeof fetch = (input) => {
      seen.push((input as Request).signal);
      return new Promise(() => {});
    };
    vi.useFakeTimers();
    const pending = accountInfo(client({ fetch: slow })).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(4999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    vi.useRealTimers();
    await expect(pending).resolves.toMatchObject({ kind: 'timeout' });
  });
});

describe('the sso flavour', () => {
  it('routes a call with an sso variant to /passport/sso/ and reads the sso envelope', async () => {
    passport.handle((_, res) => json(res, { error_code: 0, description: '', data: { sso: true } }));
    await expect(smsLogin(client({ source: 'sso' }), { mobile: '1', code: '2' })).resolves.toEqual({
      sso: true,
    });
    expect(passport.last.path).toBe('/passport/sso/sms_login/');
    expect(passport.last.query.get('account_sdk_source')).toBe('sso');
  });

  it('rejects an sso failure envelope with its error_code', async () => {
    passport.handle((_, res) => json(res, { error_code: 1102, description: 'wrong', data: {} }));
    await expect(smsLogin(client({ source: 'sso' }), { mobile: '1', code: '2' })).rejects.toMatchObject({
      kind: 'response',
      error_code: 1102,
      description: 'wrong',
    });
  });
});

it('AccountError is what every rejection is', async () => {
  passport.handle((_, res) => json(res, { message: 'error', data: { error_code: 1, description: '' } }));
  await expect(accountInfo(client())).rejects.toBeInstanceOf(AccountError);
});
