import { describe, expect, it } from 'vitest';
import { AccountError, isAccountError } from '../src';

const failure = { error_code: 1301, description: '验证码错误', sms_code_key: 'k', message: 'not mine' };

describe('AccountError', () => {
  it('carries every failure data field, the stable code and the user-facing description', () => {
    const error = new AccountError('response', failure, { log_id: 'L1', status: 200 });
    expect(error).toMatchObject({
      name: 'AccountError',
      kind: 'response',
      error_code: 1301,
      sms_code_key: 'k',
      log_id: 'L1',
    });
    expect(error.data).toBe(failure);
  });

  it('never lets a data field overwrite its own message or name', () => {
    const error = new AccountError('response', failure);
    expect(error.message).not.toBe('not mine');
    expect(error.name).toBe('AccountError');
  });

  it('says the method, path, kind, code and log id in its message', () => {
    const config = {
      method: 'POST' as const,
      path: '/passport/web/sms_login/',
      data: {},
      query: {},
      headers: {},
      envelope: 'web' as const,
      retryCount: 0,
    };
    const error = new AccountError('response', failure, { config, log_id: 'L1', status: 200 });
    expect(error.message).toBe(
      'POST /passport/web/sms_login/ failed: response (HTTP 200), error_code 1301 "验证码错误", log id L1',
    );
    expect(error.config).toBe(config);
  });

  it('keeps the original failure in cause', () => {
    const cause = new TypeError('fetch failed');
    expect(new AccountError('network', { error_code: -1, description: '' }, { cause }).cause).toBe(cause);
  });
});

describe('isAccountError', () => {
  it('recognises an AccountError, optionally of one kind', () => {
    const error = new AccountError('timeout', { error_code: -1, description: '' });
    expect(isAccountError(error)).toBe(true);
    expect(isAccountError(error, 'timeout')).toBe(true);
    expect(isAccountError(error, 'network')).toBe(false);
  });

  it('recognises one from another copy of the SDK by its brand, where instanceof fails', () => {
    const foreign = { kind: 'response', [Symbol.for('portico.AccountError')]: true };
    expect(foreign instanceof AccountError).toBe(false);
    expect(isAccountError(foreign, 'response')).toBe(true);
  });

  it('rejects look-alikes without the brand', () => {
    expect(isAccountError(new Error('x'))).toBe(false);
    expect(isAccountError({ kind: 'response', error_code: 1 })).toBe(false);
    expect(isAccountError(null)).toBe(false);
  });
});
