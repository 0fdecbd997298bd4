/**
 * `@portico/account-sdk/passkeys`: the passkey ceremonies in a browser (docs/factors.md), through
 * `@simplewebauthn/browser`. An entry of its own: the browser library keeps a module-level abort
 * service that bundlers cannot drop, so only the pages that run a ceremony carry it. The server calls
 * themselves (`passkeyLoginOptions`, `listPasskeys`, …) are in the main entry.
 */
export {
  passkeyAutofillSupported,
  passkeyFactorCredential,
  passkeysSupported,
  registerPasskey,
  signInWithPasskey,
} from './ceremonies';
