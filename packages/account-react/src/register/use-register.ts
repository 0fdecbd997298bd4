import {
  type AccountError,
  createRegistration,
  type RegisterByEmailPayload,
  type RegisterByMobilePayload,
  type RegisterValues,
  registerByEmail,
  registerByMobile,
} from '@portico/account-sdk';
import { type UseMutationResult, useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AccountInfo } from '../account-info';
import { useAccountClient } from '../context';
import { useSignedIn, useSignInMutation } from '../session/signed-in';

/**
 * Registration by code in one mutation, over the SDK's `createRegistration`: `register.mutate({
 * channel, target, code, password })` checks the register code, creates the account and signs in; the
 * answer becomes the session. The verify ticket is kept for the same target and code, so after a
 * refused password (too common, say) the person submits again without a new code.
 */
export function useRegister(): UseMutationResult<AccountInfo, AccountError, RegisterValues> {
  const client = useAccountClient();
  const done = useSignedIn();
  // One registration per client: it holds the ticket between submits.
  const registration = useMemo(() => createRegistration<AccountInfo>(client), [client]);
  return useMutation<AccountInfo, AccountError, RegisterValues>({
    mutationFn: (values) => registration.submit(values),
    onSuccess: done,
  });
}

/** Registers with a mobile number and a `verify_ticket` (`registerByMobile`); the answer becomes the session. */
export function useRegisterByMobile(): UseMutationResult<AccountInfo, AccountError, RegisterByMobilePayload> {
  return useSignInMutation(registerByMobile<AccountInfo>);
}

/** Registers with an e-mail address and a `verify_ticket` (`registerByEmail`); the answer becomes the session. */
export function useRegisterByEmail(): UseMutationResult<AccountInfo, AccountError, RegisterByEmailPayload> {
  return useSignInMutation(registerByEmail<AccountInfo>);
}
