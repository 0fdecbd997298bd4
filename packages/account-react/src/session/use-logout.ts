import { type AccountError, type LogoutPayload, logout } from '@portico/account-sdk';
import type { UseMutationResult } from '@tanstack/react-query';
import { useAccountMutation } from '../account-mutation';
import { accountQueryKeys } from '../query-keys';
import { signedOut } from './session-cache';
import { isSignedOutError } from './session-query';

/**
 * Signs out by a request (`logout` with `not_redirect: 1`, always: the app navigates itself, e.g. to
 * the answer's `next`). On success, or when the passport says there was no session, the session
 * becomes `null` and everything cached about the account is dropped. Variables are optional.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: `void` lets an app call `logout.mutate()` with no variables.
export function useLogout(): UseMutationResult<{ next?: string }, AccountError, LogoutPayload | void> {
  return useAccountMutation(
    // biome-ignore lint/suspicious/noConfusingVoidType: as above.
    async (client, payload: LogoutPayload | void) => {
      try {
        return await logout<{ next?: string }>(client, { ...payload, not_redirect: 1 });
      } catch (error) {
        // Already signed out (another tab, an expired session): the goal is reached.
        if (isSignedOutError(error)) return {};
        throw error;
      }
    },
    signedOut,
    // A sign-out whose answer was lost is in doubt: ask the passport instead of guessing.
    (queryClient) => queryClient.invalidateQueries({ queryKey: accountQueryKeys.session }),
  );
}
