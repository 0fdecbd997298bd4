import {
  type AccountClient,
  type AccountError,
  disownSignInChange,
  listSignInChanges,
  type SignInChangeDisownedData,
} from '@portico/account-sdk';
import { queryOptions, type UseMutationResult } from '@tanstack/react-query';
import { useAccountMutation } from '../account-mutation';
import { accountQueryKeys } from '../query-keys';

/** The signed-in account's changes to its sign-in methods in the last 30 days (`listSignInChanges`). */
export const signInChangesQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: accountQueryKeys.signInChanges,
    queryFn: ({ signal }) => listSignInChanges(client, {}, { signal }),
  });

/**
 * "This wasn't me" (`disownSignInChange`): every session ends, this one too, and every remembered
 * device is forgotten. The session query and the queries on screen are left as they are, so the screen
 * can lead the person on (a password reset, a sign-in again) before the app finds itself signed out; the
 * rest cached about the account is dropped.
 */
export function useDisownSignInChange(): UseMutationResult<
  SignInChangeDisownedData,
  AccountError,
  { event_id: string }
> {
  return useAccountMutation(disownSignInChange, async (queryClient) => {
    // Only what no screen shows now: a query on screen refetched would answer NOT_LOGGED_IN under it.
    queryClient.removeQueries({
      queryKey: accountQueryKeys.all,
      type: 'inactive',
      predicate: (query) => query.queryKey[2] !== accountQueryKeys.session[2],
    });
  });
}
