import { type GetUserTokenOptions, getUserToken, type UserTokenData } from '@portico/account-sdk';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useAccountClient } from '../context';
import { accountQueryKeys } from '../query-keys';
import { useSession } from '../session/session-query';

export interface UseUserTokenOptions {
  /** The audience (one of the server's USER_TOKEN_AUDIENCES). Default: the server's first. */
  aud?: string;
  /** Renew this many seconds before the token expires. Default 30. */
  minValiditySeconds?: number;
}

/**
 * The product token (`/GetUserToken`) of the signed-in person, for your back end: renewed
 * `minValiditySeconds` before it expires, dropped when the person signs out, another person signs in
 * or the person acts as another identity (the key names the account and the identity). Runs only
 * while signed in. Each call to your back end reads the current `data.token`; `expires_at` is in
 * milliseconds since the epoch (the JWT's `exp`, in seconds).
 */
export function useUserToken(options: UseUserTokenOptions = {}): UseQueryResult<UserTokenData> {
  const { aud, minValiditySeconds = 30 } = options;
  const client = useAccountClient();
  const session = useSession().data;
  const userId = session?.user_id;
  // The token names the identity acting (`org`), so a switch of identity is a new key: the back end
  // never gets the previous identity's token.
  const identity = session?.org?.user_identity_id ?? '';
  const request: GetUserTokenOptions = { minValiditySeconds, ...(aud === undefined ? {} : { aud }) };
  return useQuery({
    queryKey: [...accountQueryKeys.userToken, aud ?? '', userId ?? '', identity],
    queryFn: () => getUserToken(client, request),
    enabled: userId !== undefined,
    // Fresh until the renewal point; then the next render or the interval mints a new one.
    staleTime: (query) =>
      query.state.data
        ? Math.max(0, query.state.data.expires_at - Date.now() - minValiditySeconds * 1000)
        : 0,
    refetchInterval: (query) =>
      query.state.data
        ? Math.max(1000, query.state.data.expires_at - Date.now() - minValiditySeconds * 1000)
        : false,
  });
}
