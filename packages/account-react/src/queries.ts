import {
  accountInfo,
  hasSetPassword,
  isAccountError,
  listDevices,
  type RememberedDevice,
} from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { AccountInfo } from './account-info';
import { useAccountClient } from './context';
import { accountQueryKeys, sessionQueryKey } from './query-keys';

/** True for the passport's "not signed in" answer, which for a session query is an answer, not a failure. */
export function isSignedOutError(error: unknown): boolean {
  return isAccountError(error, 'response') && error.error_code === ErrorCode.notLoggedIn;
}

/**
 * The signed-in account, or `null` when the browser has no session (NOT_LOGGED_IN is an answer, not an
 * error). Other failures (network, server) are the query's `error`. Key: `sessionQueryKey`.
 */
export function useSession(): UseQueryResult<AccountInfo | null> {
  const client = useAccountClient();
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: async ({ signal }) => {
      try {
        return await accountInfo<AccountInfo>(client, {}, { signal });
      } catch (error) {
        if (isSignedOutError(error)) return null;
        throw error;
      }
    },
  });
}

/**
 * Whether the signed-in account has a password (`password/has_set`). Runs only while signed in; while
 * the session is loading or absent the query stays pending and idle (`fetchStatus: 'idle'`).
 */
export function useHasPassword(): UseQueryResult<boolean> {
  const client = useAccountClient();
  const signedIn = Boolean(useSession().data);
  return useQuery({
    queryKey: accountQueryKeys.hasPassword,
    queryFn: async ({ signal }) =>
      (await hasSetPassword<{ has_set: boolean }>(client, {}, { signal })).has_set,
    enabled: signedIn,
  });
}

/**
 * The devices the signed-in account has verified (a sign-in from any other one needs a second
 * verification). Runs only while signed in, like `useHasPassword`.
 */
export function useDevices(): UseQueryResult<RememberedDevice[]> {
  const client = useAccountClient();
  const signedIn = Boolean(useSession().data);
  return useQuery({
    queryKey: accountQueryKeys.devices,
    queryFn: async ({ signal }) => (await listDevices(client, {}, { signal })).devices,
    enabled: signedIn,
  });
}
