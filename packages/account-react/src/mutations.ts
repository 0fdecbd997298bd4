import type {
  ChangePasswordPayload,
  EmailCodeLoginPayload,
  LogoutPayload,
  PasswordLoginPayload,
  PasswordPayload,
  RegisterByEmailPayload,
  RegisterByMobilePayload,
  ResetPasswordPayload,
  SmsLoginPayload,
} from '@portico/account-sdk';
import {
  type AccountClient,
  type AccountError,
  changePassword,
  emailCodeLogin,
  forgetDevice,
  logout,
  passwordLogin,
  registerByEmail,
  registerByMobile,
  resetPassword,
  resetPasswordByEmail,
  setPassword,
  smsLogin,
} from '@portico/account-sdk';
import { type QueryClient, type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountInfo } from './account-info';
import { useAccountClient } from './context';
import { isSignedOutError } from './queries';
import { accountQueryKeys } from './query-keys';

/** What a mutation does to the cached account queries once it succeeded. */
type Effect = 'signIn' | 'signOut' | 'password' | 'devices';

/**
 * Who is signed in may have changed: drop everything cached about the previous account (so another
 * account's devices never flash), then refetch the session. The mutation resolves after the refetch,
 * so an app that navigates on success finds the new session in the cache.
 */
async function afterSignIn(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({
    queryKey: accountQueryKeys.all,
    predicate: (query) => query.queryKey[2] !== accountQueryKeys.session[2],
  });
  await queryClient.invalidateQueries({ queryKey: accountQueryKeys.session });
}

async function settle(queryClient: QueryClient, effect: Effect): Promise<void> {
  switch (effect) {
    case 'signIn':
      return afterSignIn(queryClient);
    case 'signOut':
      await queryClient.cancelQueries({ queryKey: accountQueryKeys.all });
      queryClient.removeQueries({
        queryKey: accountQueryKeys.all,
        predicate: (query) => query.queryKey[2] !== accountQueryKeys.session[2],
      });
      queryClient.setQueryData(accountQueryKeys.session, null);
      return;
    case 'password':
      // The session too: a password change may end this session or others, and `has_password` is in it.
      await queryClient.invalidateQueries({ queryKey: accountQueryKeys.all });
      return;
    case 'devices':
      await queryClient.invalidateQueries({ queryKey: accountQueryKeys.devices });
      return;
  }
}

function useAccountMutation<TVariables, TData>(
  call: (client: AccountClient, variables: TVariables) => Promise<TData>,
  effect: Effect,
): UseMutationResult<TData, AccountError, TVariables> {
  const client = useAccountClient();
  const queryClient = useQueryClient();
  return useMutation<TData, AccountError, TVariables>({
    mutationFn: (variables) => call(client, variables),
    onSuccess: () => settle(queryClient, effect),
    // A sign-out whose answer was lost is in doubt: ask the passport instead of guessing.
    onError:
      effect === 'signOut'
        ? () => queryClient.invalidateQueries({ queryKey: accountQueryKeys.session })
        : undefined,
  });
}

/** Signs in (or up) with a mobile number and SMS code (`smsLogin`); refreshes the session. */
export function useSmsLogin(): UseMutationResult<AccountInfo, AccountError, SmsLoginPayload> {
  return useAccountMutation(
    (client, payload: SmsLoginPayload) => smsLogin<AccountInfo>(client, payload),
    'signIn',
  );
}

/** Signs in with an e-mail address and code (`emailCodeLogin`); refreshes the session. */
export function useEmailCodeLogin(): UseMutationResult<AccountInfo, AccountError, EmailCodeLoginPayload> {
  return useAccountMutation(
    (client, payload: EmailCodeLoginPayload) => emailCodeLogin<AccountInfo>(client, payload),
    'signIn',
  );
}

/** Signs in with a password and one of email, username, mobile or account; refreshes the session. */
export function usePasswordLogin(): UseMutationResult<AccountInfo, AccountError, PasswordLoginPayload> {
  return useAccountMutation(
    (client, payload: PasswordLoginPayload) => passwordLogin<AccountInfo>(client, payload),
    'signIn',
  );
}

/** Registers with a mobile number and a `verify_ticket` (`registerByMobile`); refreshes the session. */
export function useRegisterByMobile(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  RegisterByMobilePayload
> {
  return useAccountMutation(
    (client, payload: RegisterByMobilePayload) => registerByMobile(client, payload),
    'signIn',
  );
}

/** Registers with an e-mail address and a `verify_ticket` (`registerByEmail`); refreshes the session. */
export function useRegisterByEmail(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  RegisterByEmailPayload
> {
  return useAccountMutation(
    (client, payload: RegisterByEmailPayload) => registerByEmail(client, payload),
    'signIn',
  );
}

/**
 * Resets a forgotten password with a mobile number and SMS code (`resetPassword`). The passport ends the
 * account's sessions (and may sign this browser in), so the session is refetched and the rest dropped.
 */
export function useResetPassword(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  ResetPasswordPayload & { mobile: string }
> {
  return useAccountMutation(
    (client, payload: ResetPasswordPayload & { mobile: string }) => resetPassword(client, payload),
    'signIn',
  );
}

/** Resets a forgotten password with an e-mail address and code (`resetPasswordByEmail`); as `useResetPassword`. */
export function useResetPasswordByEmail(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  ResetPasswordPayload & { email: string }
> {
  return useAccountMutation(
    (client, payload: ResetPasswordPayload & { email: string }) => resetPasswordByEmail(client, payload),
    'signIn',
  );
}

/** Sets a first password on the signed-in account (`setPassword`); refreshes the account queries. */
export function useSetPassword(): UseMutationResult<Record<string, unknown>, AccountError, PasswordPayload> {
  return useAccountMutation((client, payload: PasswordPayload) => setPassword(client, payload), 'password');
}

/** Changes the signed-in account's password with a code or ticket (`changePassword`); refreshes the account queries. */
export function useChangePassword(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  ChangePasswordPayload
> {
  return useAccountMutation(
    (client, payload: ChangePasswordPayload) => changePassword(client, payload),
    'password',
  );
}

/**
 * Signs out by a request (`logout` with `not_redirect: 1`, always: the app navigates itself, e.g. to
 * the answer's `next`). On success, or when the passport says there was no session, the session
 * becomes `null` and everything cached about the account is dropped. Variables are optional.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: `void` lets an app call `logout.mutate()` with no variables.
export function useLogout(): UseMutationResult<{ next?: string }, AccountError, LogoutPayload | void> {
  // biome-ignore lint/suspicious/noConfusingVoidType: as above.
  return useAccountMutation(async (client, payload: LogoutPayload | void) => {
    try {
      return await logout<{ next?: string }>(client, { ...payload, not_redirect: 1 });
    } catch (error) {
      // Already signed out (another tab, an expired session): the goal is reached.
      if (isSignedOutError(error)) return {};
      throw error;
    }
  }, 'signOut');
}

/** Forgets one of the account's remembered devices (`forgetDevice`); refreshes `useDevices`. */
export function useForgetDevice(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  { device_id: string }
> {
  return useAccountMutation(
    (client, payload: { device_id: string }) => forgetDevice(client, payload),
    'devices',
  );
}
