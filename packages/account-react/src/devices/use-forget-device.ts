import { type AccountError, forgetDevice } from '@portico/account-sdk';
import type { UseMutationResult } from '@tanstack/react-query';
import { useAccountMutation } from '../account-mutation';
import { accountQueryKeys } from '../query-keys';

/** Forgets one of the account's remembered devices (`forgetDevice`); refreshes `useDevices`. */
export function useForgetDevice(): UseMutationResult<
  Record<string, unknown>,
  AccountError,
  { device_id: string }
> {
  return useAccountMutation(
    (client, payload: { device_id: string }) => forgetDevice(client, payload),
    (queryClient) => queryClient.invalidateQueries({ queryKey: accountQueryKeys.devices }),
  );
}
