import {
  type AccountClient,
  type AccountError,
  type AuthBindPayload,
  type AuthUnbindPayload,
  authBindLogin,
  type BindLoginPayload,
  bindAuth,
  mobileBindLogin,
  type OAuthLoginPayload,
  oauthLogin,
  switchAuthBind,
  type ThirdPartyAccountsData,
  thirdPartyAccounts,
  unbindAuth,
} from '@portico/account-sdk';
import {
  type QueryClient,
  queryOptions,
  type UseMutationResult,
  type UseQueryResult,
  useQuery,
} from '@tanstack/react-query';
import type { AccountInfo } from '../account-info';
import { useAccountMutation } from '../account-mutation';
import { useAccountClient } from '../context';
import { accountQueryKeys } from '../query-keys';
import { useSignInMutation } from '../session/signed-in';

/**
 * The configured third-party providers and, signed in, the account's linked identities
 * (`thirdPartyAccounts`), for the sign-in buttons and the linked-accounts page.
 */
export function thirdPartyQueryOptions(client: AccountClient) {
  return queryOptions({
    queryKey: accountQueryKeys.thirdParty,
    queryFn: ({ signal }): Promise<ThirdPartyAccountsData> => thirdPartyAccounts(client, {}, { signal }),
  });
}

export function useThirdPartyAccounts(): UseQueryResult<ThirdPartyAccountsData> {
  return useQuery(thirdPartyQueryOptions(useAccountClient()));
}

/**
 * The callback page's code exchange (`oauthLogin`: login-only by default, an unlinked identity fails
 * with OAUTH_NOT_LINKED and a `profile_key`), or with `login_only: false` and a `profile_key` the new
 * account of a pending profile; the answer becomes the session.
 */
export function useOauthLogin(): UseMutationResult<AccountInfo, AccountError, OAuthLoginPayload> {
  return useSignInMutation(oauthLogin<AccountInfo>);
}

/** Signs in (or up) with an SMS code and links the pending profile (`mobileBindLogin`). */
export function useMobileBindLogin(): UseMutationResult<AccountInfo, AccountError, BindLoginPayload> {
  return useSignInMutation(mobileBindLogin);
}

/** Signs in with an e-mail code and links the pending profile (`authBindLogin`). */
export function useAuthBindLogin(): UseMutationResult<AccountInfo, AccountError, BindLoginPayload> {
  return useSignInMutation(authBindLogin);
}

const refresh = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: accountQueryKeys.thirdParty });

type Linked = Pick<ThirdPartyAccountsData, 'linked'>;

/** Links the identity of a callback to the signed-in account (`bindAuth`); refreshes the list. */
export function useBindAuth(): UseMutationResult<Linked, AccountError, AuthBindPayload> {
  return useAccountMutation(bindAuth<Linked>, refresh);
}

/** Replaces the account's identity of a provider (`switchAuthBind`); refreshes the list. */
export function useSwitchAuthBind(): UseMutationResult<Linked, AccountError, AuthBindPayload> {
  return useAccountMutation(switchAuthBind<Linked>, refresh);
}

/** Unlinks the account's identity of a provider (`unbindAuth`); refreshes the list. */
export function useUnbindAuth(): UseMutationResult<Linked, AccountError, AuthUnbindPayload> {
  return useAccountMutation(unbindAuth<Linked>, refresh);
}
