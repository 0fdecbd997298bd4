import {
  type AccountClient,
  type AccountError,
  listPasskeys,
  type PasskeyData,
  type PasskeyRemovedData,
  type PasskeyRemovePayload,
  type PasskeyRenamePayload,
  removePasskey,
  renamePasskey,
} from '@portico/account-sdk';
import { passkeyAutofillSupported, registerPasskey, signInWithPasskey } from '@portico/account-sdk/passkeys';
import { queryOptions, type UseMutationResult, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { AccountInfo } from '../account-info';
import { useAccountClient } from '../context';
import { accountQueryKeys } from '../query-keys';
import { useSession } from '../session/session-query';
import { useSignedIn, useSignInMutation } from '../session/signed-in';
import { useTouchingMutation } from '../touching-mutation';

/** The query key of the account's passkeys. */
export const passkeysQueryKey = [...accountQueryKeys.all, 'passkeys'] as const;

/** The signed-in account's passkeys (`listPasskeys`), for hooks and loaders. */
export function passkeysQueryOptions(client: AccountClient) {
  return queryOptions({
    queryKey: passkeysQueryKey,
    queryFn: async ({ signal }): Promise<PasskeyData[]> =>
      (await listPasskeys(client, {}, { signal })).passkeys,
  });
}

/** The signed-in account's passkeys, oldest first; runs only while signed in. */
export function usePasskeys(): UseQueryResult<PasskeyData[]> {
  const client = useAccountClient();
  const signedInNow = Boolean(useSession().data);
  return useQuery({ ...passkeysQueryOptions(client), enabled: signedInNow });
}

/** What a change to the passkeys touches: the list and the person's activity. */
const touched = () => [passkeysQueryKey, accountQueryKeys.activity];

/**
 * Creates a passkey in this browser and registers it (`registerPasskey`): needs a recent verification
 * (STEP_UP_REQUIRED otherwise). The browser's own refusal (the person cancelled) rejects with its
 * `WebAuthnError`, not an `AccountError`.
 */
export function useRegisterPasskey(): UseMutationResult<PasskeyData, AccountError, { name?: string }> {
  return useTouchingMutation(
    (client, variables: { name?: string }) => registerPasskey(client, variables),
    touched,
  );
}

/** Renames one of the account's passkeys. */
export function useRenamePasskey(): UseMutationResult<PasskeyData, AccountError, PasskeyRenamePayload> {
  return useTouchingMutation(renamePasskey<PasskeyData>, touched);
}

/** Removes one of the account's passkeys: needs a recent verification, never the last way in. */
export function useRemovePasskey(): UseMutationResult<
  PasskeyRemovedData,
  AccountError,
  PasskeyRemovePayload
> {
  return useTouchingMutation(removePasskey<PasskeyRemovedData>, touched);
}

/** Signs in with a passkey the browser offers (the "Sign in with a passkey" button); the answer becomes the session. */
export function usePasskeySignIn(): UseMutationResult<AccountInfo, AccountError, void> {
  return useSignInMutation((client) => signInWithPasskey<AccountInfo>(client));
}

/** A refusal the person caused or a newer ceremony replaced: nothing to show. */
/**
 * The autofill's wait is the page's, not the person's: only the passport's refusal of a passkey they
 * picked is theirs to read. The wait's own failures stay quiet — its timeout on a page left open, an
 * abort, a slow or lost answer on a busy network — or a person who never touched a passkey would read
 * that this browser cannot use one.
 */
const isRefusal = (error: unknown) => {
  const code = (error as { error_code?: unknown } | null)?.error_code;
  return typeof code === 'number' && code > 0;
};

/**
 * Offers the browser's passkeys in the autofill of the page's input with
 * `autocomplete="username webauthn"` (conditional mediation), while `enabled` and the browser supports
 * it; a pick signs in and becomes the session, then `onSignedIn` runs. Starting the button's ceremony
 * ends the wait. Answers the server's refusal of a picked passkey, if any, and nothing else.
 */
export function usePasskeyAutofill({
  enabled = true,
  onSignedIn,
}: {
  enabled?: boolean;
  onSignedIn?: (account: AccountInfo) => void;
} = {}): { error: unknown } {
  const client = useAccountClient();
  const settle = useSignedIn();
  const [error, setError] = useState<unknown>(null);
  const done = useRef(onSignedIn);
  done.current = onSignedIn;
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    (async () => {
      if (!(await passkeyAutofillSupported()) || !live) return;
      try {
        const account = await signInWithPasskey<AccountInfo>(client, { autofill: true });
        await settle(account);
        if (live) done.current?.(account);
      } catch (caught) {
        if (live && isRefusal(caught)) setError(caught);
      }
    })();
    return () => {
      live = false;
    };
  }, [client, settle, enabled]);
  return { error };
}
