import {
  type AccountClient,
  type AccountError,
  type BindEmailPayload,
  type BindMobilePayload,
  bindEmail,
  bindMobile,
  type ChangeMobilePayload,
  changeEmail,
  changeMobile,
  type SetAccountPayload,
  setAccount,
  verifyAccount,
  verifyAuth,
} from '@portico/account-sdk';
import type { QueryClient, UseMutationResult } from '@tanstack/react-query';
import type { AccountInfo } from '../account-info';
import { useAccountMutation } from '../account-mutation';
import { profileQueryKeys } from '../profile/profile-keys';
import { accountQueryKeys } from '../query-keys';

/** What a bind or change answers: the account (identifiers masked), and what else it did. */
export interface IdentifierChangedData extends AccountInfo {
  /** Other sessions ended by `kick_other: 1`. */
  kicked_sessions: number;
  /** Whether the target was moved off another account (`change_bind: 1`). */
  moved: boolean;
}

/** The answer of proving it is you: a single-use ticket bound to this session. */
export interface VerificationTicketData {
  ticket: string;
  /** Seconds the ticket stays valid. */
  expires_in: number;
  /** How it was earned. */
  method: 'mobile' | 'email' | 'password';
  /** What it may be spent on: 'change_identifier' (the default) or 'cancel_account'. */
  purpose: string;
}

/** `verifyAuth`: a code (type 22) sent to the account's own mobile or e-mail. */
export type VerifyByCodeVariables = ({ mobile: string } | { email: string }) & {
  code: string;
  type?: number;
  purpose?: string;
};

/** `verifyAccount`: the account's current password. */
export type VerifyByPasswordVariables = {
  password: string;
  purpose?: string;
};

/**
 * What an identifier change touches: the session (it holds the identifiers, `has_password` and
 * `username`), the recent activity (which records the change) and the ways to prove a cancellation
 * (a code goes to the mobile or e-mail). Nothing else about the account moves.
 */
const refreshAccount = (queryClient: QueryClient) =>
  Promise.all(
    [accountQueryKeys.session, accountQueryKeys.activity, profileQueryKeys.cancelWays].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
const nothing = () => Promise.resolve();

type Mutation<V, D> = UseMutationResult<D, AccountError, V>;

/** Binds a mobile to the signed-in account that has none (`bindMobile`, code type 8 or 17). */
export function useBindMobile(): Mutation<BindMobilePayload, IdentifierChangedData> {
  return useAccountMutation(
    (client: AccountClient, v: BindMobilePayload) => bindMobile<IdentifierChangedData>(client, v),
    refreshAccount,
  );
}

/** Binds an e-mail address to the signed-in account that has none (`bindEmail`, code type 8 or 17). */
export function useBindEmail(): Mutation<BindEmailPayload, IdentifierChangedData> {
  return useAccountMutation(
    (client: AccountClient, v: BindEmailPayload) => bindEmail<IdentifierChangedData>(client, v),
    refreshAccount,
  );
}

/** Changes the mobile with the ticket of `useVerifyIdentity` and a code to the new one (type 20). */
export function useChangeMobile(): Mutation<ChangeMobilePayload & { ticket: string }, IdentifierChangedData> {
  return useAccountMutation(
    (client: AccountClient, v: ChangeMobilePayload & { ticket: string }) =>
      changeMobile<IdentifierChangedData>(client, v),
    refreshAccount,
  );
}

/** Changes the e-mail address with a ticket and a code to the new one (type 7). */
export function useChangeEmail(): Mutation<BindEmailPayload & { ticket: string }, IdentifierChangedData> {
  return useAccountMutation(
    (client: AccountClient, v: BindEmailPayload & { ticket: string }) =>
      changeEmail<IdentifierChangedData>(client, v),
    refreshAccount,
  );
}

/** Proves it is you by a code to the account's own mobile or e-mail (`verifyAuth`); answers a ticket. */
export function useVerifyIdentity(): Mutation<VerifyByCodeVariables, VerificationTicketData> {
  return useAccountMutation(
    (client: AccountClient, v: VerifyByCodeVariables) => verifyAuth<VerificationTicketData>(client, v),
    nothing,
  );
}

/** Proves it is you by the account's password (`verifyAccount`); answers a ticket. */
export function useVerifyPassword(): Mutation<VerifyByPasswordVariables, VerificationTicketData> {
  return useAccountMutation(
    (client: AccountClient, v: VerifyByPasswordVariables) => verifyAccount<VerificationTicketData>(client, v),
    nothing,
  );
}

/**
 * Sets a username with a password (`setAccount`): a first password, or the current one when the
 * account has a password already. Afterwards the person signs in with username + password.
 */
export function useSetAccount(): Mutation<SetAccountPayload, AccountInfo> {
  return useAccountMutation(
    (client: AccountClient, v: SetAccountPayload) => setAccount<AccountInfo>(client, v),
    refreshAccount,
  );
}
