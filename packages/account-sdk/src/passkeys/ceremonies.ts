import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import {
  passkeyFactorOptions,
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

/**
 * Proves one of the account's passkeys as a factor, in the browser: the options for the account (a
 * second verification's `sms_code_key`, or none for the signed-in account's step-up), the browser's
 * answer. Resolves the answer as JSON, to send as `credential` with `method: 'passkey'` — the
 * second-verification dialog's answer, or `reverify(client, { method: 'passkey', credential })`.
 */
export async function passkeyFactorCredential(
  client: AccountClient,
  { sms_code_key }: { sms_code_key?: string } = {},
  options?: CallOptions,
): Promise<string> {
  const { options: optionsJSON } = await passkeyFactorOptions(
    client,
    sms_code_key ? { sms_code_key } : {},
    options,
  );
  const response = await startAuthentication({
    optionsJSON: optionsJSON as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return JSON.stringify(response);
}
