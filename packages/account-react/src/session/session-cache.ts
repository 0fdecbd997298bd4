import type { QueryClient } from '@tanstack/react-query';
import type { AccountInfo } from '../account-info';
import { accountQueryKeys } from '../query-keys';

/** Drops everything cached about the account except the session itself. */
function dropAccountData(queryClient: QueryClient): void {
  queryClient.removeQueries({
    queryKey: accountQueryKeys.all,
    predicate: (query) => query.queryKey[2] !== accountQueryKeys.session[2],
  });
}

const isAccount = (answer: unknown): answer is AccountInfo =>
  typeof (answer as AccountInfo | null)?.user_id === 'string' &&
  typeof (answer as AccountInfo).session === 'object';

/**
 * Someone signed in and the passport answered with the account (every sign-in and registration does):
 * drop the previous account's data (so another account's devices never flash) and put the answer in
 * the session query, so a loader or a header finds it without a second round trip. An answer that is
 * not an account (an older passport) makes the session refetch instead.
 */
export async function signedIn(queryClient: QueryClient, answer: unknown): Promise<void> {
  dropAccountData(queryClient);
  await queryClient.cancelQueries({ queryKey: accountQueryKeys.session });
  if (isAccount(answer)) queryClient.setQueryData<AccountInfo | null>(accountQueryKeys.session, answer);
  else await queryClient.invalidateQueries({ queryKey: accountQueryKeys.session });
}

/** Who is signed in may have changed without an account in the answer (a reset ends every session): ask. */
export async function sessionChanged(queryClient: QueryClient): Promise<void> {
  dropAccountData(queryClient);
  await queryClient.invalidateQueries({ queryKey: accountQueryKeys.session });
}

/** Signed out: the session is `null` and nothing about the account stays cached. */
export async function signedOut(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: accountQueryKeys.all });
  dropAccountData(queryClient);
  queryClient.setQueryData(accountQueryKeys.session, null);
}
