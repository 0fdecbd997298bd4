import { type AccountClient, listDevices, type RememberedDevice } from '@portico/account-sdk';
import { queryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useAccountClient } from '../context';
import { accountQueryKeys } from '../query-keys';
import { useSession } from '../session/session-query';

/** The devices the signed-in account has verified (`device/list`), for hooks and loaders. */
export function devicesQueryOptions(client: AccountClient) {
  return queryOptions({
    queryKey: accountQueryKeys.devices,
    queryFn: async ({ signal }): Promise<RememberedDevice[]> =>
      (await listDevices(client, {}, { signal })).devices,
  });
}

/**
 * The devices the signed-in account has verified (a sign-in from any other one needs a second
 * verification). Runs only while signed in, like `useHasPassword`.
 */
export function useDevices(): UseQueryResult<RememberedDevice[]> {
  const client = useAccountClient();
  const signedIn = Boolean(useSession().data);
  return useQuery({ ...devicesQueryOptions(client), enabled: signedIn });
}
