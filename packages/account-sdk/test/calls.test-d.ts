import { describe, expectTypeOf, it } from 'vitest';
import {
  type AccountClient,
  type AccountData,
  type AccountError,
  type AccountErrorKind,
  type AccountExportData,
  type AccountInfo,
  accountInfo,
  type CallOptions,
  type CheckLoginData,
  checkLogin,
  checkMobileCode,
  type DeviceListData,
  defineCall,
  exportUserData,
  isAccountError,
  type LogoutData,
  listDevices,
  logout,
  oauthLogin,
  type PasswordChangedData,
  passwordLogin,
  type RegisteredData,
  registerByMobile,
  resetPasswordByTicket,
  type SendCodeData,
  sendEmailCode,
  shareLogin,
  smsLogin,
  type TicketData,
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
    expectTypeOf(smsLogin(client, { mobile: '1', code: '2' })).resolves.toEqualTypeOf<AccountInfo>();
    expectTypeOf(smsLogin<{ user_id: number }>(client, { mobile: '1', code: '2' })).resolves.toEqualTypeOf<{
      user_id: number;
    }>();
  });

  it('resolve the wire type of the protocol by default', () => {
    expectTypeOf(
      passwordLogin(client, { email: 'a@b.c', password: 'p' }),
    ).resolves.toEqualTypeOf<AccountInfo>();
    expectTypeOf(accountInfo(client)).resolves.toEqualTypeOf<AccountInfo>();
    expectTypeOf(
      sendEmailCode(client, { email: 'a@b.c', type: CodeType.emailLogin }),
    ).resolves.toEqualTypeOf<SendCodeData>();
    expectTypeOf(
      checkMobileCode(client, { mobile: '1', code: '2', type: CodeType.register }),
    ).resolves.toEqualTypeOf<TicketData>();
    expectTypeOf(checkLogin(client)).resolves.toEqualTypeOf<CheckLoginData>();
    expectTypeOf(logout(client)).resolves.toEqualTypeOf<LogoutData>();
    expectTypeOf(
      registerByMobile(client, { mobile: '1', verify_ticket: 't' }),
    ).resolves.toEqualTypeOf<RegisteredData>();
    expectTypeOf(
      resetPasswordByTicket(client, { ticket: 't', password: 'p' }),
    ).resolves.toEqualTypeOf<PasswordChangedData>();
    expectTypeOf(listDevices(client)).resolves.toEqualTypeOf<DeviceListData>();
    expectTypeOf(shareLogin(client)).resolves.toEqualTypeOf<AccountInfo>();
    expectTypeOf(exportUserData(client)).resolves.toEqualTypeOf<AccountExportData>();
    expectTypeOf(exportUserData(client)).resolves.not.toEqualTypeOf<AccountData>();
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
  it('checks its path against the protocol families', () => {
    defineCall<{ a: string }>('/passport/web/sms_login/');
    // @ts-expect-error not a path of any family
    defineCall<{ a: string }>('/passport/web/sms_loginn/');
  });

  it('takes another package’s paths when it names their type', () => {
    defineCall<{ a: string }, { b: number }, '/passport/aff/web/invite/'>('/passport/aff/web/invite/');
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
