import {
  type AccountClient,
  type AccountError,
  type FactorsData,
  generateRecoveryCodes,
  listFactors,
  type RecoveryCodesData,
  type TotpStartedData,
  totpConfirm,
  totpRemove,
  totpStart,
} from '@portico/account-sdk';
import { queryOptions, type UseMutationResult, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useAccountMutation } from '../account-mutation';
import { useAccountClient } from '../context';
import { accountQueryKeys } from '../query-keys';
import { useSession } from '../session/session-query';

/** The account's authenticator app and recovery codes (`factor/list`), for hooks and loaders. */
export function factorsQueryOptions(client: AccountClient) {
  return queryOptions({
    queryKey: accountQueryKeys.factors,
    queryFn: ({ signal }): Promise<FactorsData> => listFactors(client, {}, { signal }),
  });
}

/** The account's authenticator app and recovery codes; runs only while signed in. */
export function useFactors(): UseQueryResult<FactorsData> {
  const client = useAccountClient();
  const signedIn = Boolean(useSession().data);
  return useQuery({ ...factorsQueryOptions(client), enabled: signedIn });
}

/**
 * Starts an authenticator app (`totpStart`): resolves the secret and otpauth:// URI, shown once. Needs
 * a recent verification: the provider's step-up dialog asks for one when the server does.
 */
export function useTotpStart(): UseMutationResult<TotpStartedData, AccountError, void> {
  return useAccountMutation(
    (client) => totpStart(client, {}),
    async () => undefined,
  );
}

const refreshFactors = (queryClient: Parameters<Parameters<typeof useAccountMutation>[1]>[0]) =>
  queryClient.invalidateQueries({ queryKey: accountQueryKeys.factors });

/** Confirms the started app with its first code (`totpConfirm`); refreshes `useFactors`. */
export function useTotpConfirm(): UseMutationResult<FactorsData, AccountError, { code: string }> {
  return useAccountMutation(totpConfirm, refreshFactors);
}

/** Removes the authenticator app (`totpRemove`, step-up); refreshes `useFactors`. */
export function useTotpRemove(): UseMutationResult<FactorsData, AccountError, void> {
  return useAccountMutation((client) => totpRemove(client, {}), refreshFactors);
}

/** Ten new recovery codes (`generateRecoveryCodes`, step-up), shown once; refreshes `useFactors`. */
export function useGenerateRecoveryCodes(): UseMutationResult<RecoveryCodesData, AccountError, void> {
  return useAccountMutation((client) => generateRecoveryCodes(client, {}), refreshFactors);
}
