import { type AccountClient, hasSetPassword } from '@portico/account-sdk';
import { queryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useAccountClient } from '../context';
import { accountQueryKeys } from '../query-keys';
import { useSession } from '../session/session-query';

/** Whether the signed-in account has a password (`password/has_set`), for hooks and loaders. */
export function hasPasswordQueryOptions(client: AccountClient) {
  return queryOptions({
    queryKey: accountQueryKeys.hasPassword,
    queryFn: async ({ signal }) =>
      (await hasSetPassword<{ has_set: boolean }>(client, {}, { signal })).has_set,
  });
}

/**
 * Whether the signed-in account has a password. Runs only while signed in; while the session is
 * loading or absent the query stays pending and idle (`fetchStatus: 'idle'`).
 */
export function useHasPassword(): UseQueryResult<boolean> {
  const client = useAccountClient();
  const signedIn = Boolean(useSession().data);
  return useQuery({ ...hasPasswordQueryOptions(client), enabled: signedIn });
}
