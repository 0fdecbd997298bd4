import { type AccountClient, accountInfo, isAccountError } from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { queryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { AccountInfo } from '../account-info';
import { useAccountClient } from '../context';
import { sessionQueryKey } from '../query-keys';

/** True for the passport's "not signed in" answer, which for a session query is an answer, not a failure. */
export function isSignedOutError(error: unknown): boolean {
  return isAccountError(error, 'response') && error.error_code === ErrorCode.notLoggedIn;
}

/**
 * The session query, for hooks and route loaders alike: the signed-in account (`account/info`), or
 * `null` when the browser has no session (NOT_LOGGED_IN is an answer, not an error). In a loader:
 * `await queryClient.fetchQuery(sessionQueryOptions(client))` answers from the cache while it is fresh.
 */
export function sessionQueryOptions(client: AccountClient) {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: async ({ signal }): Promise<AccountInfo | null> => {
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
 * The signed-in account, or `null` when the browser has no session. Other failures (network, server)
 * are the query's `error`. Key: `sessionQueryKey`.
 */
export function useSession(): UseQueryResult<AccountInfo | null> {
  return useQuery(sessionQueryOptions(useAccountClient()));
}
