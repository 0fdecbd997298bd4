import type { AccountClient, AccountError } from '@portico/account-sdk';
import { type UseMutationResult, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useAccountMutation } from '../account-mutation';
import { useDialogController } from '../context';
import { preloadSecondVerify } from '../second-verify/panels';
import { signedIn } from './session-cache';

/**
 * What a completed sign-in (or registration) does with the passport's answer, however it came: a form,
 * a passkey picked in the autofill, a QR code scanned. It becomes the session (`signedIn`), and the
 * provider's dialog closes everything it shows or queues, all of it for the replaced session: a second
 * verification whose ticket is now stale (rejects with SECOND_VALID), a step-up (its 2047 failure),
 * the demand to set up a factor (its 1621 failure). A code in flight that comes back wrong rejects as
 * closed too instead of reopening the dialog (the controller's `closeAll`).
 */
export function useSignedIn(): (answer: unknown) => Promise<void> {
  const queryClient = useQueryClient();
  const dialog = useDialogController();
  return useCallback(
    (answer: unknown) => {
      dialog.closeAll();
      return signedIn(queryClient, answer);
    },
    [dialog, queryClient],
  );
}

/** A sign-in (or registration) over an SDK call, resolved once its answer is the session (`useSignedIn`). */
export function useSignInMutation<TVariables, TData>(
  call: (client: AccountClient, variables: TVariables) => Promise<TData>,
): UseMutationResult<TData, AccountError, TVariables> {
  const done = useSignedIn();
  // A sign-in form is shown: its 2046 should find the dialog's panel loaded, not wait for the chunk.
  useEffect(preloadSecondVerify, []);
  return useAccountMutation(call, (_queryClient, data) => done(data));
}
