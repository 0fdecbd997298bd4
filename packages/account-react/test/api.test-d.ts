import type { AccountClient, AccountError, RememberedDevice } from '@portico/account-sdk';
import type { QueryClient, UseQueryResult } from '@tanstack/react-query';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AccountInfo,
  sessionQueryOptions,
  useDevices,
  useHasPassword,
  useLogout,
  usePasswordLogin,
  useRegister,
  useSendCode,
  useSession,
  useSmsLogin,
  useUpdatePassword,
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

  it('a loader fetching sessionQueryOptions gets what useSession holds', () => {
    const queryClient = {} as QueryClient;
    const options = {} as ReturnType<typeof sessionQueryOptions>;
    expectTypeOf(queryClient.fetchQuery(options)).resolves.toEqualTypeOf<AccountInfo | null>();
    expectTypeOf<Parameters<typeof sessionQueryOptions>[0]>().toEqualTypeOf<AccountClient>();
  });

  it('useRegister takes the channel, target, code and password; useUpdatePassword the current one', () => {
    const register = {} as ReturnType<typeof useRegister>;
    register.mutate({ channel: 'email', target: 'ada@example.com', code: '123456', password: 'pw' });
    // @ts-expect-error the channel says where the code went
    register.mutate({ target: 'ada@example.com', code: '123456', password: 'pw' });
    expectTypeOf(register.data).toEqualTypeOf<AccountInfo | undefined>();

    const update = {} as ReturnType<typeof useUpdatePassword>;
    update.mutate({ current_password: 'old', password: 'new' });
    // @ts-expect-error the current password is required
    update.mutate({ password: 'new' });
  });

  it('useSendCode', () => {
    const sender = {} as ReturnType<typeof useSendCode>;
    expectTypeOf(sender.send).toEqualTypeOf<(target: string) => Promise<void>>();
    expectTypeOf(sender.cooldown).toEqualTypeOf<number>();
    expectTypeOf(sender.isPending).toEqualTypeOf<boolean>();
    expectTypeOf(sender.error).toEqualTypeOf<AccountError | null>();
  });
});
