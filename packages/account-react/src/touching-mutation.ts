import type { AccountClient, AccountError } from '@portico/account-sdk';
import { type QueryKey, type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import { useAccountClient } from './context';

/**
 * A TanStack mutation over an SDK call that, before it resolves, refreshes exactly the
 * queries the change touches (`touches`), so a page never refetches what did not move.
 */
export function useTouchingMutation<TVariables, TData>(
  call: (client: AccountClient, variables: TVariables) => Promise<TData>,
  touches: (variables: TVariables, data: TData) => readonly QueryKey[],
): UseMutationResult<TData, AccountError, TVariables> {
  const client = useAccountClient();
  const queryClient = useQueryClient();
  return useMutation<TData, AccountError, TVariables>({
    mutationFn: (variables) => call(client, variables),
    onSuccess: (data, variables) =>
      Promise.all(touches(variables, data).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
