import { AccountError } from '@portico/account-sdk';
import { DECISION_CONF_FIELD, ErrorCode, SECOND_VALID } from '@portico/account-sdk/protocol';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorMessage, errorText } from '../src';
import { fakePassport } from './support/fake-passport';
import { renderWithAccount } from './support/render';

const response = (error_code: number, description = 'whatever the server said', extra = {}) =>
  new AccountError('response', { error_code, description, ...extra });

describe('errorText', () => {
  it('translates by code, never by the message', () => {
    const error = response(ErrorCode.codeWrong, 'ignored text');
    expect(errorText(error, 'zh')).toBe('验证码错误');
    expect(errorText(error, 'en')).toBe('The code is incorrect');
  });

  it('gives no-response failures their own generic texts', () => {
    const network = new AccountError('network', { error_code: -1, description: '' });
    const timeout = new AccountError('timeout', { error_code: -1, description: '' });
    expect(errorText(network, 'zh')).toBe('网络连接失败，请检查网络后重试');
    expect(errorText(network, 'en')).toBe('Could not reach the server; check your connection and try again');
    expect(errorText(timeout, 'en')).toBe('The server took too long to answer; try again');
  });

  it('says nothing when the person closed an overlay or nothing failed', () => {
    expect(errorText(response(ErrorCode.secondVerify, SECOND_VALID), 'zh')).toBe('');
    expect(errorText(response(ErrorCode.challengeRequired, '', { [DECISION_CONF_FIELD]: '{}' }), 'zh')).toBe(
      '',
    );
    expect(errorText(undefined, 'zh')).toBe('');
    // The same code with the server's text is a real failure.
    expect(errorText(response(ErrorCode.challengeRequired), 'en')).toBe('Complete the security check');
  });

  it("shows the server's own description for a code outside the sign-in ranges", () => {
    // The account centre's ranges (here 1801 IDENTIFIER_TAKEN) are not on a sign-in page's first load.
    expect(errorText(response(ErrorCode.identifierTaken, '已绑定其他账号'), 'zh')).toBe('已绑定其他账号');
    expect(errorText(response(987654), 'en')).toBe('whatever the server said');
  });

  it('falls back to generic texts for unknown codes without a description and foreign errors', () => {
    expect(errorText(response(987654, ''), 'en')).toBe('Something went wrong; try again later');
    expect(errorText(new TypeError('boom'), 'zh')).toBe('出了点问题，请稍后重试');
  });
});

describe('<ErrorMessage>', () => {
  it('renders the catalogue text in an alert, in the provider language', () => {
    const { client } = fakePassport({});
    const error = response(ErrorCode.wrongCredentials);
    const { unmount } = renderWithAccount(<ErrorMessage error={error} />, { client, language: 'zh' });
    expect(screen.getByRole('alert').textContent).toBe('账号或密码错误');
    unmount();
    renderWithAccount(<ErrorMessage error={error} />, { client, language: 'en' });
    expect(screen.getByRole('alert').textContent).toBe('Incorrect account or password');
  });

  it('renders nothing without an error', () => {
    render(<ErrorMessage error={null} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
