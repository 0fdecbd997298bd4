import { describe, expect, it, vi } from 'vitest';
import {
  AccountError,
  type AccountPlugin,
  accountCall,
  accountInfo,
  createAccountClient,
  isAccountError,
  smsLogin,
} from '../src';
import { DECISION_CONF_FIELD, decodeMixedFields, ErrorCode, SECOND_VALID } from '../src/protocol';
import { cookieJar } from './support/cookie-jar';
import { json, usePassport } from './support/passport-server';

const passport = usePassport();

const base = () => ({ aid: 1128, baseUrl: passport.url, document: cookieJar() });

describe('beforeRequest hooks (ky’s own)', () => {
  it('may change the call’s data, query and headers before the SDK encodes them', async () => {
    passport.handle((_, res) => json(res, { message: 'success', data: {} }));
    const client = createAccountClient({
      ...base(),
      hooks: {
        beforeRequest: [
          (state) => {
            const { config } = accountCall(state);
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
  it('may set headers on ky’s request, as with ky anywhere, and every resend carries them', async () => {
    passport.handle((req, res) =>
      req.form.get('isResend')
        ? json(res, { message: 'success', data: {} })
        : json(res, { message: 'error', data: { error_code: 1401, description: '' } }),
    );
    const client = createAccountClient({
      ...base(),
      hooks: {
        beforeRequest: [({ request }) => void request.headers.set('cookie', 'sessionid=s1')],
        afterResponse: [
          (state) => {
            const call = accountCall(state);
            if (call.config.retryCount === 0) return call.resend({ data: { isResend: 1 } });
          },
        ],
      },
    });
    await smsLogin(client, { mobile: '1', code: '2' });
    expect(passport.requests.map((r) => r.headers.cookie)).toEqual(['sessionid=s1', 'sessionid=s1']);
  });
});

describe('afterResponse hooks (ky’s own)', () => {
  it('resend the original request with a patch merged in through ky.retry(), and the call settles as the resend does', async () => {
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
    const retryCounts: number[] = [];
    const client = createAccountClient({
      ...base(),
      hooks: {
        afterResponse: [
          async (state) => {
            const call = accountCall(state);
            retryCounts.push(state.retryCount, call.config.retryCount);
            const body = (await call.body(state.response)) as { data?: Record<string, unknown> };
            if (body.data?.[DECISION_CONF_FIELD])
              return call.resend({ data: { fp: 'verify_x', isResend: 1 } });
          },
        ],
      },
    });
    await expect(smsLogin(client, { mobile: '138', code: '1234' })).resolves.toEqual({ user_id: 1 });
    expect(passport.requests).toHaveLength(2);
    expect(retryCounts).toEqual([0, 0, 1, 1]);
    const resent = decodeMixedFields(Object.fromEntries(passport.last.form));
    expect(resent).toMatchObject({
      mobile: '138',
      code: '1234',
      fp: 'verify_x',
      isResend: '1',
      need_frozen_user: '0',
    });
    // The resend is a request of its own: a fresh trace id, the same common parameters.
    const [first, second] = passport.requests;
    expect(second!.headers.traceparent).not.toBe(first!.headers.traceparent);
    expect(second!.query.get('aid')).toBe('1128');
  });

  it('a failing resend rejects with its own error', async () => {
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
        afterResponse: [
          async (state) => {
            const call = accountCall(state);
            const body = (await call.body(state.response)) as { data: { error_code: number } };
            seen(body.data.error_code, call.config.retryCount);
            if (call.config.retryCount === 0) return call.resend({ data: { again: 1 } });
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

  it('may answer with another response before the success rule (ky: return a Response)', async () => {
    passport.handle((_, res) => json(res, { message: 'error', data: { error_code: 9, description: '' } }));
    const client = createAccountClient({
      ...base(),
      hooks: { afterResponse: [() => Response.json({ message: 'success', data: 'patched' })] },
    });
    await expect(accountInfo(client)).resolves.toBe('patched');
  });

  it('may reject the call with an AccountError of their own (closing second verification: SECOND_VALID)', async () => {
    passport.handle((_, res) => json(res, { message: 'error', data: { error_code: 2046, description: '' } }));
    const client = createAccountClient({
      ...base(),
      hooks: {
        afterResponse: [
          (state) => {
            throw new AccountError(
              'response',
              { error_code: ErrorCode.secondVerify, description: SECOND_VALID },
              { config: accountCall(state).config },
            );
          },
        ],
      },
    });
    await expect(smsLogin(client, { mobile: '1', code: '2' })).rejects.toMatchObject({
      error_code: 2046,
      description: SECOND_VALID,
    });
  });
});

describe('beforeError hooks (ky’s own)', () => {
  it('see every rejection as an AccountError, network failures too, and may replace it', async () => {
    const seen: string[] = [];
    const client = createAccountClient({
      ...base(),
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      hooks: {
        beforeError: [
          ({ error }) => {
            seen.push((error as AccountError).kind);
            return new AccountError('network', { error_code: -1, description: 'offline' });
          },
        ],
      },
    });
    const error = await accountInfo(client).catch((e: unknown) => e);
    expect(isAccountError(error, 'network')).toBe(true);
    expect(error).toMatchObject({ description: 'offline' });
    expect(seen).toEqual(['network']);
  });

  it('see envelope failures with their log id', async () => {
    passport.handle((_, res) =>
      json(res, { message: 'error', data: { error_code: 1301, description: '' } }, 200, 'log-7'),
    );
    const seen: unknown[] = [];
    const client = createAccountClient({
      ...base(),
      hooks: {
        beforeError: [
          ({ error }) => {
            seen.push(error);
            return error;
          },
        ],
      },
    });
    await expect(accountInfo(client)).rejects.toMatchObject({ error_code: 1301, log_id: 'log-7' });
    expect(seen).toHaveLength(1);
    expect(isAccountError(seen[0], 'response')).toBe(true);
  });
});

describe('client.use(plugin)', () => {
  it('runs a plugin’s hooks in every call after the client’s own, until its remove function is called', async () => {
    passport.handle((_, res) => json(res, { message: 'success', data: {} }));
    const order: string[] = [];
    const client = createAccountClient({
      ...base(),
      hooks: { beforeRequest: [() => void order.push('client')] },
    });
    const plugin: AccountPlugin = {
      name: 'affiliate',
      setup: () => ({
        beforeRequest: [
          (state) => {
            order.push('plugin');
            accountCall(state).config.data.subject_aid = 9;
          },
        ],
      }),
    };
    const remove = client.use(plugin);
    await accountInfo(client);
    expect(order).toEqual(['client', 'plugin']);
    expect(passport.last.query.get('subject_aid')).toBe('9');
    remove();
    await accountInfo(client);
    expect(order).toEqual(['client', 'plugin', 'client']);
    expect(passport.last.query.get('subject_aid')).toBeNull();
  });
});
