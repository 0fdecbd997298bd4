import { describe, expectTypeOf, it } from 'vitest';
import {
  type AccountClient,
  type AccountData,
  type AccountError,
  type AccountErrorKind,
  accountInfo,
  type CallOptions,
  defineCall,
  isAccountError,
  oauthLogin,
  passwordLogin,
  sendEmailCode,
  smsLogin,
  uploadAvatar,
} from '../src';
import { CodeType } from '../src/protocol';

declare const client: AccountClient;

describe('call signatures', () => {
  it('take the client, a typed payload and per-call options, and resolve the data', () => {
    expectTypeOf(smsLogin).toBeCallableWith(client, { mobile: '1', code: '2' });
    expectTypeOf(smsLogin).toBeCallableWith(
      client,
      { mobile: '1', code: '2' },
      { signal: new AbortController().signal },
    );
    expectTypeOf(smsLogin(client, { mobile: '1', code: '2' })).resolves.toEqualTypeOf<AccountData>();
    expectTypeOf(smsLogin<{ user_id: number }>(client, { mobile: '1', code: '2' })).resolves.toEqualTypeOf<{
      user_id: number;
    }>();
  });

  it('require the payload fields a purpose needs', () => {
    // @ts-expect-error code is required
    smsLogin(client, { mobile: '1' });
    // @ts-expect-error the purpose is a CodeType value
    sendEmailCode(client, { email: 'a@b.c', type: 999 });
    sendEmailCode(client, { email: 'a@b.c', type: CodeType.emailLogin });
  });

  it('let the payload be left out when every field is optional', () => {
    expectTypeOf(accountInfo).toBeCallableWith(client);
    // @ts-expect-error smsLogin needs a payload
    smsLogin(client);
  });

  it('type password login as a password plus at least one identifier', () => {
    passwordLogin(client, { email: 'a@b.c', password: 'p' });
    passwordLogin(client, { username: 'u', password: 'p' });
    passwordLogin(client, { account: 'a', password: 'p' });
    // @ts-expect-error one of email, username, mobile or account is required
    passwordLogin(client, { password: 'p' });
  });

  it('type OAuth login with an optional login_only', () => {
    oauthLogin(client, { platform_app_id: 1, code: 'c' });
    oauthLogin(client, { platform_app_id: 1, code: 'c', login_only: false });
  });

  it('type uploads with a Blob', () => {
    // @ts-expect-error avatar is a Blob
    uploadAvatar(client, { avatar: 'path.png' });
  });

  it('take CallOptions as the last argument', () => {
    expectTypeOf<Parameters<typeof accountInfo>[2]>().toEqualTypeOf<CallOptions | undefined>();
  });
});

describe('defineCall', () => {
  it('checks its key against the protocol families', () => {
    defineCall<{ a: string }>({}, 'smsLogin');
    // @ts-expect-error not a path key of any family
    defineCall<{ a: string }>({}, 'smsLoginn');
  });
});

describe('isAccountError', () => {
  it('narrows to AccountError', () => {
    const value: unknown = null;
    if (isAccountError(value)) {
      expectTypeOf(value).toEqualTypeOf<AccountError>();
      expectTypeOf(value.kind).toEqualTypeOf<AccountErrorKind>();
      expectTypeOf(value.error_code).toEqualTypeOf<number>();
      expectTypeOf(value.log_id).toEqualTypeOf<string>();
    }
  });
});
