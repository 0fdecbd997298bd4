import { createHash } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  type VerifiedAuthenticationResponse,
  type VerifiedRegistrationResponse,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  decodeAttestationObject,
  decodeClientDataJSON,
  isoBase64URL,
  parseAuthenticatorData,
} from '@simplewebauthn/server/helpers';
import type { PasskeyConfig } from '../../config';
import { PassportError } from '../../errors';

/**
 * The WebAuthn ceremonies, through SimpleWebAuthn (no CBOR or attestation parsing of our own): options
 * out, answers verified against the challenge the server kept, its origins and its relying party.
 * Before the library's verification the answer is read for what a person or an operator needs told
 * apart — whose challenge, which origin, which relying party, the signature counter — so each refusal
 * has its own code; the library then verifies everything, those included.
 */

/** How long a ceremony's challenge stays usable (and the browser's timeout). */
export const CEREMONY_TTL_MS = 5 * 60_000;

/**
 * The public-key algorithms offered and accepted: EdDSA, ES256, RS256 (COSE ids). Named, so the library
 * does not probe the runtime for post-quantum ones (an experimental Web Crypto call that warns).
 */
const ALGORITHMS = [-8, -7, -257];

/** The store keys of the two ceremonies' challenges: single use (`take`), with expiry. */
export const registrationChallengeKey = (challenge: string) => `passkey:register:${challenge}`;
export const authenticationChallengeKey = (challenge: string) => `passkey:login:${challenge}`;

const verificationFailed = (cause?: unknown) =>
  new PassportError('passkeyVerificationFailed', {}, cause === undefined ? undefined : { cause });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The browser's answer, parsed; a shape the library cannot read is PASSKEY_VERIFICATION_FAILED. */
function parseCredential(json: string, field: 'attestationObject' | 'authenticatorData') {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw verificationFailed(error);
  }
  const response = isObject(value) ? value.response : undefined;
  if (
    !isObject(value) ||
    typeof value.id !== 'string' ||
    typeof value.rawId !== 'string' ||
    value.type !== 'public-key' ||
    !isObject(response) ||
    typeof response.clientDataJSON !== 'string' ||
    typeof response[field] !== 'string'
  )
    throw verificationFailed();
  return value;
}

export function parseRegistration(json: string): RegistrationResponseJSON {
  return parseCredential(json, 'attestationObject') as unknown as RegistrationResponseJSON;
}

export function parseAuthentication(json: string): AuthenticationResponseJSON {
  const value = parseCredential(json, 'authenticatorData') as unknown as AuthenticationResponseJSON;
  if (typeof value.response.signature !== 'string') throw verificationFailed();
  return value;
}

/**
 * The challenge a credential answers, read before the transaction to take it from the store; '' when
 * unreadable (the operation then refuses the credential itself).
 */
export function answeredChallenge(json: string): string {
  try {
    const value = JSON.parse(json) as { response?: { clientDataJSON?: unknown } };
    const clientData = value?.response?.clientDataJSON;
    const challenge = typeof clientData === 'string' ? decodeClientDataJSON(clientData).challenge : '';
    return typeof challenge === 'string' ? challenge : '';
  } catch {
    return '';
  }
}

/** What the client data says: the challenge it answers and the origin the browser was at. */
export function clientDataOf(response: { response: { clientDataJSON: string } }) {
  try {
    const data = decodeClientDataJSON(response.response.clientDataJSON);
    if (typeof data.challenge !== 'string' || typeof data.origin !== 'string')
      throw new Error('no challenge');
    return data;
  } catch (error) {
    throw verificationFailed(error);
  }
}

/** PASSKEY_ORIGIN_MISMATCH unless the browser was at one of the configured origins. */
export function assertOrigin(config: PasskeyConfig, origin: string): void {
  if (!config.origins.includes(origin)) throw new PassportError('passkeyOriginMismatch');
}

/** PASSKEY_RP_MISMATCH unless the authenticator data names this relying party. */
function assertRelyingParty(config: PasskeyConfig, rpIdHash: Uint8Array<ArrayBufferLike>): void {
  const expected = createHash('sha256').update(config.rpId).digest();
  if (!expected.equals(Buffer.from(rpIdHash))) throw new PassportError('passkeyRpMismatch');
}

function authenticatorData(bytes: Parameters<typeof parseAuthenticatorData>[0]) {
  try {
    return parseAuthenticatorData(bytes);
  } catch (error) {
    throw verificationFailed(error);
  }
}

export function registrationOptions(
  config: PasskeyConfig,
  account: { handle: string; name: string; displayName: string },
  exclude: { credential_id: string; transports: string }[],
) {
  return generateRegistrationOptions({
    rpName: config.rpName,
    rpID: config.rpId,
    userName: account.name,
    userDisplayName: account.displayName,
    userID: isoBase64URL.toBuffer(account.handle),
    timeout: CEREMONY_TTL_MS,
    attestationType: 'none',
    excludeCredentials: exclude.map((row) => ({
      id: row.credential_id,
      transports: JSON.parse(row.transports) as string[],
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

export const authenticationOptions = (config: PasskeyConfig) =>
  generateAuthenticationOptions({
    rpID: config.rpId,
    timeout: CEREMONY_TTL_MS,
    userVerification: 'required',
    // Discoverable credentials: the authenticator offers the passkeys it holds for this site.
    allowCredentials: [],
  });

/** Options to prove one of the account's passkeys (a factor): its credentials named. */
export const factorOptions = (
  config: PasskeyConfig,
  passkeys: { credential_id: string; transports: string }[],
) =>
  generateAuthenticationOptions({
    rpID: config.rpId,
    timeout: CEREMONY_TTL_MS,
    userVerification: 'required',
    allowCredentials: passkeys.map((row) => ({
      id: row.credential_id,
      transports: JSON.parse(row.transports) as never,
    })),
  });

/** Verifies a registration answering `challenge`; the credential to store. */
export async function verifyRegistration(
  config: PasskeyConfig,
  response: RegistrationResponseJSON,
  challenge: string,
): Promise<Extract<VerifiedRegistrationResponse, { verified: true }>['registrationInfo']> {
  let rpIdHash: Uint8Array<ArrayBufferLike>;
  try {
    const attestation = decodeAttestationObject(isoBase64URL.toBuffer(response.response.attestationObject));
    rpIdHash = authenticatorData(attestation.get('authData')).rpIdHash;
  } catch (error) {
    if (error instanceof PassportError) throw error;
    throw verificationFailed(error);
  }
  assertRelyingParty(config, rpIdHash);
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: config.origins,
      expectedRPID: config.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch (error) {
    throw verificationFailed(error);
  }
  if (!verified.verified) throw verificationFailed();
  return verified.registrationInfo;
}

/** Verifies a sign-in answering `challenge` with the stored credential; its new counter and flags. */
export async function verifyAuthentication(
  config: PasskeyConfig,
  response: AuthenticationResponseJSON,
  challenge: string,
  credential: { id: string; publicKey: string; counter: number; transports: string[] },
): Promise<VerifiedAuthenticationResponse['authenticationInfo']> {
  let data: ReturnType<typeof parseAuthenticatorData>;
  try {
    data = authenticatorData(isoBase64URL.toBuffer(response.response.authenticatorData));
  } catch (error) {
    if (error instanceof PassportError) throw error;
    throw verificationFailed(error);
  }
  assertRelyingParty(config, data.rpIdHash);
  let verified: VerifiedAuthenticationResponse;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: config.origins,
      expectedRPID: config.rpId,
      credential: {
        id: credential.id,
        publicKey: isoBase64URL.toBuffer(credential.publicKey),
        // The counter is judged below, once the signature has verified: a forged answer (any counter
        // in it) is PASSKEY_VERIFICATION_FAILED and says nothing about the authenticator.
        counter: 0,
        transports: credential.transports as never,
      },
      requireUserVerification: true,
    });
  } catch (error) {
    throw verificationFailed(error);
  }
  if (!verified.verified) throw verificationFailed();
  // A counter that does not move forward (when either side keeps one) is a copy of the authenticator
  // answering, signed by its key: refused, and the stored counter stays.
  const { newCounter } = verified.authenticationInfo;
  if ((credential.counter > 0 || newCounter > 0) && newCounter <= credential.counter)
    throw new PassportError('passkeyCounterRegressed');
  return verified.authenticationInfo;
}
