/**
 * Query keys of the account queries, all under one prefix so a sign-in, sign-out or account change can
 * refresh or drop them together: `queryClient.invalidateQueries({ queryKey: accountQueryKeys.all })`.
 */
export const accountQueryKeys = {
  all: ['portico', 'account'] as const,
  session: ['portico', 'account', 'session'] as const,
  hasPassword: ['portico', 'account', 'has-password'] as const,
  devices: ['portico', 'account', 'devices'] as const,
  factors: ['portico', 'account', 'factors'] as const,
  userToken: ['portico', 'account', 'user-token'] as const,
  thirdParty: ['portico', 'account', 'third-party'] as const,
  /** The person's recent security activity (every page of it). */
  activity: ['portico', 'account', 'activity'] as const,
  /** The account's recent changes to its sign-in methods. */
  signInChanges: ['portico', 'account', 'sign-in-changes'] as const,
};

/** The key of `useSession`: `queryClient.getQueryData(sessionQueryKey)`. */
export const sessionQueryKey = accountQueryKeys.session;
