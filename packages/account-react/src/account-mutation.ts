import type { AccountClient, AccountError } from '@portico/account-sdk';
import { type QueryClient, type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { useAccountClient } from './context';

/**
 * A TanStack mutation over an SDK call, with the cache work of its area (`settle`) done before it
 * resolves: an app that navigates in `onSuccess`, or after `mutateAsync`, finds the cache up to date.
 */
export function useAccountMutation<TVariables, TData>(
  call: (client: AccountClient, variables: TVariables) => Promise<TData>,
  settle: (queryClient: QueryClient, data: TData) => Promise<unknown>,
  onError?: (queryClient: QueryClient) => Promise<unknown>,
): UseMutationResult<TData, AccountError, TVariables> {
  const client = useAccountClient();
  const queryClient = useQueryClient();
  return useMutation<TData, AccountError, TVariables>({
    mutationFn: (variables) => call(client, variables),
    onSuccess: (data) => settle(queryClient, data),
    onError: onError && (() => onError(queryClient)),
  });
}
