import {
  type AccountError,
  type ChangePasswordPayload,
  changePassword,
  type PasswordChangedData,
  type PasswordPayload,
  type ResetPasswordPayload,
  resetPassword,
  resetPasswordByEmail,
  setPassword,
  type UpdatePasswordPayload,
  updatePassword,
} from '@portico/account-sdk';
import type { QueryClient, UseMutationResult } from '@tanstack/react-query';
import { useAccountMutation } from '../account-mutation';
import { accountQueryKeys } from '../query-keys';
import { sessionChanged } from '../session/session-cache';

/**
 * What a password change touches: the session (it may end this session or others, and `has_password`
 * is in it), whether there is a password, and the recent activity (which records the change).
 */
const refreshAccount = (queryClient: QueryClient) =>
  Promise.all(
    [accountQueryKeys.session, accountQueryKeys.hasPassword, accountQueryKeys.activity].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );

/**
 * Resets a forgotten password with a mobile number and SMS code (`resetPassword`). The passport ends
 * every session of the account, so the session is refetched and the rest dropped.
 */
export function useResetPassword(): UseMutationResult<
  PasswordChangedData,
  AccountError,
  ResetPasswordPayload & { mobile: string }
> {
  return useAccountMutation(resetPassword, sessionChanged);
}

/** Resets a forgotten password with an e-mail address and code (`resetPasswordByEmail`); as `useResetPassword`. */
export function useResetPasswordByEmail(): UseMutationResult<
  PasswordChangedData,
  AccountError,
  ResetPasswordPayload & { email: string }
> {
  return useAccountMutation(resetPasswordByEmail, sessionChanged);
}

/** Sets a first password on the signed-in account (`setPassword`); refreshes the account queries. */
export function useSetPassword(): UseMutationResult<PasswordChangedData, AccountError, PasswordPayload> {
  return useAccountMutation(setPassword, refreshAccount);
}

/**
 * Changes the signed-in account's password, proving the current one (`updatePassword`:
 * `{ current_password, password }`); refreshes the account queries.
 */
export function useUpdatePassword(): UseMutationResult<
  PasswordChangedData,
  AccountError,
  UpdatePasswordPayload
> {
  return useAccountMutation(updatePassword, refreshAccount);
}

/** Changes the signed-in account's password with a code or ticket (`changePassword`); refreshes the account queries. */
export function useChangePassword(): UseMutationResult<
  PasswordChangedData,
  AccountError,
  ChangePasswordPayload
> {
  return useAccountMutation(changePassword, refreshAccount);
}
