import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { Encoder } from 'cbor-x';

/**
 * A software WebAuthn authenticator for tests: real P-256 keys (node:crypto), real CBOR (cbor-x, not
 * the library under test), real attestations (`none`, and `packed` self-attestation signed by the
 * credential's own key) and assertions, as a browser would hand them to the page. It keeps its
 * discoverable credentials (the user handle each was made for) and a signature counter per credential,
 * which a test may wind back to play a cloned authenticator.
 */

// Byte strings as plain CBOR byte strings (no tag 64), maps with integer keys as COSE needs.
const cbor = new Encoder({ useRecords: false, tagUint8Array: false, mapsAsObjects: false });

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

/** Options as the server's `register/options` answers them (the parts an authenticator reads). */
export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}

export interface RequestOptions {
  challenge: string;
  rpId?: string;
}

interface StoredCredential {
  id: Buffer;
  key: KeyObject;
  publicJwk: { x: string; y: string };
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface AuthenticatorOptions {
  /** The page's origin the "browser" reports in the client data. */
  origin: string;
  /** `none` (default) or `packed` self-attestation. */
  attestation?: 'none' | 'packed';
  /** A synced passkey (backup eligible and backed up): the device type is multiDevice. */
  synced?: boolean;
  /** Whether it verifies the user (a PIN, a fingerprint); default true. */
  userVerification?: boolean;
  /** Counter step per signature; 0 for an authenticator that keeps none. Default 1. */
  counterStep?: number;
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];
  /** A fixed AAGUID, as a real model has. */
  readonly aaguid = randomBytes(16);

  constructor(readonly options: AuthenticatorOptions) {}

  private flags(extra: number): number {
    let flags = FLAG_UP | extra;
    if (this.options.userVerification !== false) flags |= FLAG_UV;
    if (this.options.synced) flags |= FLAG_BE | FLAG_BS;
    return flags;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create: answers as SimpleWebAuthn's `startRegistration` returns it. */
  create(
    options: CreationOptions,
    overrides: { origin?: string; rpId?: string; challenge?: string } = {},
  ): { json: string; credentialId: string } {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.options.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const id = randomBytes(32);
    const coseKey = cbor.encode(
      new Map<number, number | Buffer>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([this.aaguid, idLength, id, coseKey]);
    const counter = 0;
    const authData = this.authData(rpId, this.flags(FLAG_AT), counter, attested);
    const clientDataJSON = this.clientData(
      'webauthn.create',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.options.origin,
    );
    const attStmt =
      this.options.attestation === 'packed'
        ? new Map<string, number | Buffer>([
            ['alg', -7],
            ['sig', sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey)],
          ])
        : new Map();
    const attestationObject = cbor.encode(
      new Map<string, unknown>([
        ['fmt', this.options.attestation ?? 'none'],
        ['attStmt', attStmt],
        ['authData', authData],
      ]),
    );
    this.credentials.push({
      id,
      key: privateKey,
      publicJwk: jwk,
      rpId,
      userHandle: options.user.id,
      counter,
    });
    const response = {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
    return { json: JSON.stringify(response), credentialId: b64url(id) };
  }

  /**
   * navigator.credentials.get with no allow list: the discoverable credential for the relying party
   * (the newest, or `credentialId`), signed over its next counter value.
   */
  get(
    options: RequestOptions,
    overrides: {
      origin?: string;
      rpId?: string;
      credentialId?: string;
      userHandle?: string;
      /** The counter to sign with, instead of the next one (a cloned authenticator). */
      counter?: number;
    } = {},
  ): string {
    const rpId = options.rpId ?? new URL(this.options.origin).hostname;
    const credential = overrides.credentialId
      ? this.credentials.find((c) => b64url(c.id) === overrides.credentialId)
      : this.credentials.filter((c) => c.rpId === rpId).at(-1);
    if (!credential) throw new Error(`the authenticator holds no passkey for ${rpId}`);
    const step = this.options.counterStep ?? 1;
    const counter = overrides.counter ?? credential.counter + step;
    if (overrides.counter === undefined) credential.counter = counter;
    const authData = this.authData(overrides.rpId ?? rpId, this.flags(0), counter);
    const clientDataJSON = this.clientData(
      'webauthn.get',
      options.challenge,
      overrides.origin ?? this.options.origin,
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.key);
    return JSON.stringify({
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: overrides.userHandle ?? credential.userHandle,
      },
    });
  }
}
