import type { AccountInfo } from '@portico/account-react';
import { isSignedOutError, sessionQueryKey } from '@portico/account-react';
import { accountInfo } from '@portico/account-sdk';
import { accountClient, queryClient } from './account';

/**
 * The session as route loaders see it: the same cache entry `useSession()` reads (same key, same
 * answer: `null` when signed out). `fetchQuery` answers from the cache while the entry is fresh and
 * fetches when it is stale or invalidated. That matters right after a sign-in: the account hooks
 * invalidate the session, but when no mounted component watches it (the sign-in pages show no header)
 * nothing refetches it, and a cached `null` would bounce the browser straight back to login.
 */
export function loadSession(): Promise<AccountInfo | null> {
  return queryClient.fetchQuery({
    queryKey: sessionQueryKey,
    queryFn: async ({ signal }) => {
      try {
        return await accountInfo<AccountInfo>(accountClient, {}, { signal });
      } catch (error) {
        if (isSignedOutError(error)) return null;
        throw error;
      }
    },
  });
}
