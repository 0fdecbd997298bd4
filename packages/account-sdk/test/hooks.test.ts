import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountError, accountInfo, createAccountClient, isAccountError, smsLogin } from '../src';
import { DECISION_CONF_FIELD, decodeMixedFields, ErrorCode, SECOND_VALID } from '../src/protocol';
import { cookieJar } from './support/cookie-jar';
import { json, type Passport, startPassport } from './support/passport-server';

let passport: Passport;
beforeAll(async () => {
  passport = await startPassport();
});
afterAll(() => passport.close());
beforeEach(() => {
  passport.requests.length = 0;
});

const base = () => ({ aid: 1128, baseUrl: passport.url, document: cookieJar() });

describe('beforeRequest hooks', () => {
  it('may change the data, query and headers before the request is encoded', async () => {
    passport.handle((_, res) => json(res, { message: 'success', data: {} }));
    const client = createAccountClient({
      ...base(),
      hooks: {
        beforeRequest: [
          (config) => {
            config.data.subject_aid = 7;
            config.query.trace = 'yes';
            config.headers['x-plugin'] = 'affiliate';
          },
        ],
      },
    });
    await smsLogin(client, { mobile: '1', code: '2' });
    expect(passport.last.form.get('subject_aid')).toBe('7');
    expect(passport.last.query.get('trace')).toBe('yes');
    expect(passport.last.headers['x-plugin']).toBe('affiliate');
  });
});

describe('afterResponse hooks', () => {
  it('can answer a challenge by resending the original request with the fingerprint and isResend merged in', async () => {
    passport.handle((req, res) =>
      req.form.get('isResend') === '1'
        ? json(res, { message: 'success', data: { user_id: 1 } })
        : json(res, {
            message: 'error',
            data: {
              error_code: 1401,
              description: '',
              [DECISION_CONF_FIELD]: '{"code":3058,"challenge_id":"c1"}',
            },
          }),
    );
    const client = createAccountClient({
      ...base(),
      hooks: {
        afterResponse: [
          ({ body, retry, config }) => {
            const data = (body as { data?: Record<string, unknown> }).data;
            if (data?.[DECISION_CONF_FIELD] && config.retryCount === 0)
              return retry({ data: { fp: 'verify_x', isResend: 1 } });
          },
        ],
      },
    });
    await expect(smsLogin(client, { mobile: '138', code: '1234' })).resolves.toEqual({ user_id: 1 });
    expect(passport.requests).toHaveLength(2);
    const resent = decodeMixedFields(Object.fromEntries(passport.last.form));
    expect(resent).toMatchObject({
      mobile: '138',
      code: '1234',
      fp: 'verify_x',
      isResend: '1',
      need_frozen_user: '0',
    });
  });

  it('can replace the body before the success rule', async () => {
    passport.handle((_, res) => json(res, { message: 'error', data: { error_code: 9, description: '' } }));
    const client = createAccountClient({
      ...base(),
      hooks: { afterResponse: [() => ({ message: 'success', data: 'patched' })] },
    });
    await expect(accountInfo(client)).resolves.toBe('patched');
  });
});

describe('beforeError hooks', () => {
  it('can continue a 2046 second verification by resending with the sms_code_key merged in', async () => {
    passport.handle((req, res) =>
      req.form.get('sms_code_key')
        ? json(res, { message: 'success', data: { continued: req.form.get('sms_code_key') } })
        : json(res, {
            message: 'error',
            data: { error_code: ErrorCode.secondVerify, description: '', sms_code_key: 'k-9' },
          }),
    );
    const client = createAccountClient(base());
    client.hooks.beforeError.push(({ error, retry }) => {
      if (error.error_code === ErrorCode.secondVerify)
        return retry({ data: { sms_code_key: error.sms_code_key } });
    });
    await expect(smsLogin(client, { mobile: '1', code: '2' })).resolves.toEqual({ continued: 'k-9' });
    expect(passport.requests.map((r) => r.form.get('sms_code_key'))).toEqual([null, 'k-9']);
  });

  it('settle the call as the resend does: a failing resend rejects with its own error', async () => {
    passport.handle((req, res) =>
      json(res, {
        message: 'error',
        data: { error_code: req.form.get('again') ? 1302 : 1301, description: '' },
      }),
    );
    const seen = vi.fn();
    const client = createAccountClient({
      ...base(),
      hooks: {
        beforeError: [
          ({ error, retry, config }) => {
            seen(error.error_code, config.retryCount);
            if (config.retryCount === 0) return retry({ data: { again: 1 } });
          },
        ],
      },
    });
    await expect(smsLogin(client, { mobile: '1', code: '2' })).rejects.toMatchObject({ error_code: 1302 });
    expect(seen.mock.calls).toEqual([
      [1301, 0],
      [1302, 1],
    ]);
  });

  it('can reject with another AccountError (closing second verification rejects with SECOND_VALID)', async () => {
    passport.handle((_, res) => json(res, { message: 'error', data: { error_code: 2046, description: '' } }));
    const client = createAccountClient({
      ...base(),
      hooks: {
        beforeError: [
          ({ error }) =>
            new AccountError(
              'response',
              { ...error.data, description: SECOND_VALID },
              { config: error.config },
            ),
        ],
      },
    });
    await expect(smsLogin(client, { mobile: '1', code: '2' })).rejects.toMatchObject({
      description: SECOND_VALID,
    });
  });

  it('see network failures too', async () => {
    const seen: string[] = [];
    const client = createAccountClient({
      ...base(),
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      hooks: { beforeError: [({ error }) => void seen.push(error.kind)] },
    });
    const error = await accountInfo(client).catch((e: unknown) => e);
    expect(isAccountError(error, 'network')).toBe(true);
    expect(seen).toEqual(['network']);
  });
});

it('ky hooks run inside each HTTP exchange', async () => {
  passport.handle((_, res) => json(res, { message: 'success', data: {} }));
  const client = createAccountClient({
    ...base(),
    kyHooks: { beforeRequest: [({ request }) => void request.headers.set('x-ky', '1')] },
  });
  await accountInfo(client);
  expect(passport.last.headers['x-ky']).toBe('1');
});
