import {
  type AccountError,
  type ChangePasswordPayload,
  changePassword,
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

/** The session too: a password change may end this session or others, and `has_password` is in it. */
const refreshAccount = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: accountQueryKeys.all });

/**
 * Resets a forgotten password with a mobile number and SMS code (`resetPassword`). The passport ends
 * every session of the account, so the session is refetched and the rest dropped.
 */
export function useResetPassword(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  ResetPasswordPayload & { mobile: string }
> {
  return useAccountMutation(
    (client, payload: ResetPasswordPayload & { mobile: string }) => resetPassword(client, payload),
    sessionChanged,
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
    sessionChanged,
  );
}

/** Sets a first password on the signed-in account (`setPassword`); refreshes the account queries. */
export function useSetPassword(): UseMutationResult<Record<string, unknown>, AccountError, PasswordPayload> {
  return useAccountMutation(
    (client, payload: PasswordPayload) => setPassword(client, payload),
    refreshAccount,
  );
}

/**
 * Changes the signed-in account's password, proving the current one (`updatePassword`:
 * `{ current_password, password }`); refreshes the account queries.
 */
export function useUpdatePassword(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  UpdatePasswordPayload
> {
  return useAccountMutation(
    (client, payload: UpdatePasswordPayload) => updatePassword(client, payload),
    refreshAccount,
  );
}

/** Changes the signed-in account's password with a code or ticket (`changePassword`); refreshes the account queries. */
export function useChangePassword(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  ChangePasswordPayload
> {
  return useAccountMutation(
    (client, payload: ChangePasswordPayload) => changePassword(client, payload),
    refreshAccount,
  );
}
