import { createHash, createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  type VerifiedAuthenticationResponse,
  type VerifiedRegistrationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  decodeAttestationObject,
  decodeClientDataJSON,
  decodeCredentialPublicKey,
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

/** The client data of a ceremony's answer (WebAuthn's CollectedClientData), as JSON.parse reads it. */
type ClientData = ReturnType<typeof decodeClientDataJSON>;

/** What a verified sign-in tells: the new counter and the credential's flags. */
type AuthenticationInfo = VerifiedAuthenticationResponse['authenticationInfo'];

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

/**
 * What the client data says: the challenge it answers and the origin the browser was at. `bytes`: the
 * client data already decoded from base64url (a sign-in hashes the same bytes).
 */
export function clientDataOf(
  response: { response: { clientDataJSON: string } },
  bytes = Buffer.from(response.response.clientDataJSON, 'base64url'),
): ClientData {
  try {
    const data = JSON.parse(bytes.toString('utf8')) as ClientData;
    if (typeof data !== 'object' || data === null) throw new Error('not an object');
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
  if (!rpIdHashOf(config.rpId).equals(rpIdHash)) throw new PassportError('passkeyRpMismatch');
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

/** A stored credential's public key, ready to verify with: made once per key (see `verifyingKey`). */
interface VerifyingKey {
  key: KeyObject;
  /** The digest the algorithm signs with; null for EdDSA (the curve's own). */
  digest: 'sha256' | 'sha384' | 'sha512' | null;
}

/** Keys kept between sign-ins, by the stored COSE key's text (cleared when full). */
const KEY_CACHE_SIZE = 10_000;
const verifyingKeys = new Map<string, VerifyingKey>();

const EC2_CURVES: Record<number, string> = { 1: 'P-256', 2: 'P-384', 3: 'P-521' };
const base64url = (value: unknown) => {
  if (!(value instanceof Uint8Array)) throw verificationFailed();
  return Buffer.from(value).toString('base64url');
};

/**
 * The node:crypto key of a stored COSE public key, of the algorithms registration accepts (ES256 on the
 * curve the key names, RS256, EdDSA on Ed25519), decoded by SimpleWebAuthn's CBOR reader. Kept by the
 * stored key's own text: the cache never answers for a key the passkey's row does not hold, and the row
 * is read at every sign-in, so a removed passkey is refused at once (PASSKEY_UNKNOWN) whatever is kept.
 */
function verifyingKey(publicKey: string): VerifyingKey {
  const kept = verifyingKeys.get(publicKey);
  if (kept) return kept;
  let made: VerifyingKey;
  try {
    const cose = decodeCredentialPublicKey(isoBase64URL.toBuffer(publicKey)) as unknown as Map<
      number,
      unknown
    >;
    const [kty, alg, crv] = [cose.get(1), cose.get(3), cose.get(-1)];
    let jwk: JsonWebKey;
    if (alg === -7 && kty === 2 && typeof crv === 'number' && EC2_CURVES[crv]) {
      jwk = { kty: 'EC', crv: EC2_CURVES[crv], x: base64url(cose.get(-2)), y: base64url(cose.get(-3)) };
    } else if (alg === -257 && kty === 3) {
      jwk = { kty: 'RSA', n: base64url(cose.get(-1)), e: base64url(cose.get(-2)) };
    } else if (alg === -8 && kty === 1 && crv === 6) {
      jwk = { kty: 'OKP', crv: 'Ed25519', x: base64url(cose.get(-2)) };
    } else throw new Error(`unsupported COSE key (kty ${String(kty)}, alg ${String(alg)})`);
    made = { key: createPublicKey({ key: jwk, format: 'jwk' }), digest: alg === -8 ? null : 'sha256' };
  } catch (error) {
    throw verificationFailed(error);
  }
  if (verifyingKeys.size >= KEY_CACHE_SIZE) verifyingKeys.clear();
  verifyingKeys.set(publicKey, made);
  return made;
}

/** SHA-256 of each relying party id, made once. */
const rpIdHashes = new Map<string, Buffer>();
function rpIdHashOf(rpId: string): Buffer {
  let hash = rpIdHashes.get(rpId);
  if (!hash) {
    hash = createHash('sha256').update(rpId).digest();
    rpIdHashes.set(rpId, hash);
  }
  return hash;
}

/**
 * Verifies a sign-in answering `challenge` with the stored credential; its new counter and flags.
 *
 * Every check of SimpleWebAuthn's `verifyAuthenticationResponse` (14.x), in our code over its parsers
 * (client data, authenticator data, COSE key): the credential's id and type; the client data's type
 * (`webauthn.get`), challenge, origin, no top origin (Portico is not framed) and token binding; the
 * authenticator data's relying party, user presence and user verification and backup flags; then the
 * signature over the authenticator data and the client data's hash, with node:crypto and the key made
 * once per stored key (the library imports the key into WebCrypto at every call, several thread-pool
 * hops that cost more than the verification itself: docs/benchmarks.md, "Passkey sign-in"); then the
 * counter. Registration — the attestation — stays the library's alone.
 */
export async function verifyAuthentication(
  config: PasskeyConfig,
  response: AuthenticationResponseJSON,
  challenge: string,
  credential: { id: string; publicKey: string; counter: number },
): Promise<AuthenticationInfo> {
  const { id, rawId, type, response: answer } = response;
  if (!id || id !== rawId || type !== 'public-key') throw verificationFailed();
  if (typeof answer?.clientDataJSON !== 'string') throw verificationFailed();
  const clientDataBytes = Buffer.from(answer.clientDataJSON, 'base64url');
  const client = clientDataOf(response, clientDataBytes);
  if (client.type !== 'webauthn.get' || client.challenge !== challenge) throw verificationFailed();
  if (client.topOrigin) throw verificationFailed();
  assertOrigin(config, client.origin);
  const binding = client.tokenBinding as { status?: unknown } | undefined;
  if (binding !== undefined && !['present', 'supported', 'notSupported'].includes(String(binding?.status)))
    throw verificationFailed();
  if (!isoBase64URL.isBase64URL(answer.authenticatorData) || !isoBase64URL.isBase64URL(answer.signature))
    throw verificationFailed();
  if (answer.userHandle !== undefined && typeof answer.userHandle !== 'string') throw verificationFailed();
  const authData = Buffer.from(answer.authenticatorData, 'base64url');
  const data = authenticatorData(authData);
  assertRelyingParty(config, data.rpIdHash);
  const { flags } = data;
  if (!flags.up || !flags.uv) throw verificationFailed();
  // A credential that says it is backed up but cannot be (single-device) is malformed.
  if (flags.bs && !flags.be) throw verificationFailed();
  const { key, digest } = verifyingKey(credential.publicKey);
  const clientDataHash = createHash('sha256').update(clientDataBytes).digest();
  let signed: boolean;
  try {
    signed = verify(
      digest,
      Buffer.concat([authData, clientDataHash]),
      key,
      Buffer.from(answer.signature, 'base64url'),
    );
  } catch (error) {
    throw verificationFailed(error);
  }
  if (!signed) throw verificationFailed();
  // A counter that does not move forward (when either side keeps one) is a copy of the authenticator
  // answering, signed by its key: refused, and the stored counter stays. Judged only now, once the
  // signature verified: a forged answer (any counter in it) says nothing about the authenticator.
  const newCounter = data.counter;
  if ((credential.counter > 0 || newCounter > 0) && newCounter <= credential.counter)
    throw new PassportError('passkeyCounterRegressed');
  return {
    newCounter,
    credentialID: credential.id,
    userVerified: flags.uv,
    credentialDeviceType: flags.be ? 'multiDevice' : 'singleDevice',
    credentialBackedUp: flags.bs,
    authenticatorExtensionResults: data.extensionsData,
    origin: client.origin,
    rpID: config.rpId,
  };
}
