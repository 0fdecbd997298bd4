import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import {
  passkeyLoginOptions,
  passkeyLoginVerify,
  passkeyRegisterOptions,
  passkeyRegisterVerify,
} from '../calls/passkeys';
import type { AccountClient, CallOptions } from '../client/types';
import type { AccountInfo, PasskeyData } from '../protocol/types';

/**
 * The passkey ceremonies in a browser (docs/factors.md): the server's options, passed as they are to
 * `navigator.credentials` through `@simplewebauthn/browser`, and its answer sent back. The browser's
 * own refusals (the person cancelled, no authenticator) reject with its `WebAuthnError` (`name`
 * `NotAllowedError`, …); the server's with an `AccountError`.
 */

/** Whether this browser can create and use passkeys at all. */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** Whether this browser offers passkeys in an input's autofill (conditional mediation). */
export const passkeyAutofillSupported = (): Promise<boolean> => browserSupportsWebAuthnAutofill();

/**
 * Registers a passkey for the signed-in account: options, the browser's creation, verification. Needs
 * a recent verification: the server answers STEP_UP_REQUIRED otherwise (the step-up plugin handles it).
 */
export async function registerPasskey(
  client: AccountClient,
  { name }: { name?: string } = {},
  options?: CallOptions,
): Promise<PasskeyData> {
  const { options: optionsJSON } = await passkeyRegisterOptions(client, {}, options);
  const response = await startRegistration({
    optionsJSON: optionsJSON as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return passkeyRegisterVerify(
    client,
    { credential: JSON.stringify(response), ...(name ? { name } : {}) },
    options,
  );
}

/**
 * Signs in with a passkey, no identifier: the browser offers the passkeys it holds for the site. With
 * `autofill: true` it waits for the person to pick one in the autofill of an input with
 * `autocomplete="username webauthn"` (start it when the page loads; starting another ceremony, the
 * button's, ends the wait).
 */
export async function signInWithPasskey<T = AccountInfo>(
  client: AccountClient,
  { autofill = false }: { autofill?: boolean } = {},
  options?: CallOptions,
): Promise<T> {
  const { options: optionsJSON } = await passkeyLoginOptions(client, {}, options);
  const response = await startAuthentication({
    optionsJSON: optionsJSON as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  });
  return passkeyLoginVerify<T>(client, { credential: JSON.stringify(response) }, options);
}
