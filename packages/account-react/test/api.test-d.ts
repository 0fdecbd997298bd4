import type { AccountError, RememberedDevice } from '@portico/account-sdk';
import type { UseQueryResult } from '@tanstack/react-query';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AccountInfo,
  useDevices,
  useHasPassword,
  useLogout,
  usePasswordLogin,
  useSendCode,
  useSession,
  useSmsLogin,
} from '../src';

describe('hook types the apps code against', () => {
  it('queries', () => {
    expectTypeOf<ReturnType<typeof useSession>>().toEqualTypeOf<UseQueryResult<AccountInfo | null>>();
    expectTypeOf<ReturnType<typeof useHasPassword>>().toEqualTypeOf<UseQueryResult<boolean>>();
    expectTypeOf<ReturnType<typeof useDevices>>().toEqualTypeOf<UseQueryResult<RememberedDevice[]>>();
  });

  it('mutations take the SDK payload and fail with AccountError', () => {
    const sms = {} as ReturnType<typeof useSmsLogin>;
    sms.mutate({ mobile: '+8613912345678', code: '123456' });
    // @ts-expect-error the code is required
    sms.mutate({ mobile: '+8613912345678' });
    expectTypeOf(sms.error).toEqualTypeOf<AccountError | null>();
    expectTypeOf(sms.data).toEqualTypeOf<AccountInfo | undefined>();

    const password = {} as ReturnType<typeof usePasswordLogin>;
    password.mutate({ username: 'ada', password: 'pw' });
    // @ts-expect-error one identifier is required
    password.mutate({ password: 'pw' });

    const logout = {} as ReturnType<typeof useLogout>;
    logout.mutate();
    logout.mutate({ next: '/home' });
  });

  it('useSendCode', () => {
    const sender = {} as ReturnType<typeof useSendCode>;
    expectTypeOf(sender.send).toEqualTypeOf<(target: string) => Promise<void>>();
    expectTypeOf(sender.cooldown).toEqualTypeOf<number>();
    expectTypeOf(sender.isPending).toEqualTypeOf<boolean>();
    expectTypeOf(sender.error).toEqualTypeOf<AccountError | null>();
  });
});
