import { randomInt } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { hmac, sha256 } from '../../lib/crypto';
import type { Store } from '../../store/store';

/**
 * The proof-of-work stage of every challenge, on ALTCHA's audited v2 scheme (`altcha-lib`) with
 * PBKDF2/SHA-256: the server picks a secret counter below the price and signs the prefix of the key
 * PBKDF2(nonce ‖ counter, salt, cost) derives; the browser derives keys for counters 0, 1, 2, … in Web
 * Workers (WebCrypto's own PBKDF2, native code) until one matches. So a phone pays per attempt what a
 * script's CPU pays, and the work is exactly counter + 1 attempts whoever solves it (docs/security.md
 * says why PBKDF2 and not SHA-256 alone or Argon2id).
 *
 * What we add on top of the library: the challenge's signed `data` carries the challenge id, the
 * puzzle's serial, the mode, keyed tags of the client address and device that drew it, and an expiry,
 * so a solution answers exactly one puzzle of one challenge id, from the address and device that drew
 * it (no farming the work out, no buying it solved); it is spent in the store on first use (no replay,
 * on any instance); the expiry is judged on the server's injectable clock, never the library's
 * `Date.now()`; only PBKDF2/SHA-256 at our cost is accepted. The derived key is checked against its
 * signed HMAC (the library's key signature): verifying costs the server one HMAC, not a derivation.
 */

/** What the client receives: ALTCHA v2's challenge, and the price (the counter is below `limit`). */
export interface PowChallenge {
  parameters: {
    algorithm: 'PBKDF2/SHA-256';
    nonce: string;
    salt: string;
    cost: number;
    keyLength: number;
    keyPrefix: string;
    keySignature?: string;
    data?: Record<string, string | number | boolean | null>;
  };
  signature: string;
  /** The most attempts the work can need (the client's progress and its give-up point). */
  limit: number;
}

/** The route the work is for: a drawn puzzle, or the accessible route (the same price, and a cooldown). */
export type PowMode = 'puzzle' | 'accessible';

export interface PowBinding {
  challengeId: string;
  serial: number;
  mode: PowMode;
  /** The client address (IPv6 by /64) and device that drew the puzzle, and must answer it. */
  ip: string;
  device: string;
}

export type PowVerdict = 'ok' | 'invalid';

export interface Pow {
  /** A challenge whose hidden counter is below `attempts`, of `cost` iterations per attempt. */
  issue(binding: PowBinding, attempts: number, cost: number, ttlMs: number): Promise<PowChallenge>;
  /** Checks a solution (base64 JSON `{challenge, solution}`) against its binding and spends it; 'ok' once. */
  spend(payload: string, binding: PowBinding): Promise<PowVerdict>;
}

const ALGORITHM = 'PBKDF2/SHA-256';
const MODES: Record<PowMode, string> = { puzzle: 'p', accessible: 'a' };
/** A base64 JSON payload of ALTCHA v2's shape is well under this. */
export const POW_PAYLOAD_MAX = 2048;

interface SolutionPayload {
  challenge?: { parameters?: Record<string, unknown>; signature?: unknown };
  solution?: { counter?: unknown; derivedKey?: unknown };
}

function decode(payload: string): SolutionPayload | null {
  if (!payload || payload.length > POW_PAYLOAD_MAX) return null;
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as SolutionPayload) : null;
  } catch {
    return null;
  }
}

export function createPow({ secret, store, now }: { secret: Buffer; store: Store; now: () => number }): Pow {
  // Keys of their own, derived from the server secret: a leaked PoW key says nothing about CSRF tokens.
  const signatureKey = hmac(secret, 'vc|pow|altcha2|sig');
  const keySignatureKey = hmac(secret, 'vc|pow|altcha2|key');
  const tagKey = Buffer.from(hmac(secret, 'vc|pow|altcha2|tag'));
  /** A keyed tag of the address or device: the challenge names them without showing them. */
  const tag = (kind: string, value: string) => hmac(tagKey, `${kind}|${value}`).slice(0, 22);

  const dataOf = (binding: PowBinding, expiresAt: number) => ({
    cid: binding.challengeId,
    s: binding.serial,
    m: MODES[binding.mode],
    a: tag('a', binding.ip),
    d: tag('d', binding.device),
    x: Math.ceil(expiresAt / 1000),
  });

  return {
    async issue(binding, attempts, cost, ttlMs) {
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost,
        counter: randomInt(0, Math.max(1, Math.floor(attempts))),
        deriveKey,
        data: dataOf(binding, now() + ttlMs),
        hmacSignatureSecret: signatureKey,
        hmacKeySignatureSecret: keySignatureKey,
      });
      return {
        parameters: challenge.parameters as PowChallenge['parameters'],
        signature: challenge.signature ?? '',
        limit: Math.max(1, Math.floor(attempts)),
      };
    },

    async spend(payload, binding) {
      const decoded = decode(payload);
      const parameters = decoded?.challenge?.parameters;
      const signature = decoded?.challenge?.signature;
      const solution = decoded?.solution;
      const data = parameters?.data as Record<string, unknown> | undefined;
      if (
        !parameters ||
        typeof signature !== 'string' ||
        !solution ||
        parameters.algorithm !== ALGORITHM ||
        typeof parameters.keySignature !== 'string' ||
        !data ||
        typeof data !== 'object'
      ) {
        return 'invalid';
      }
      const expected = dataOf(binding, 0);
      const expiresAt = Number(data.x) * 1000;
      if (
        data.cid !== expected.cid ||
        data.s !== expected.s ||
        data.m !== expected.m ||
        data.a !== expected.a ||
        data.d !== expected.d ||
        !Number.isFinite(expiresAt) ||
        expiresAt <= now()
      ) {
        return 'invalid';
      }
      // No `expiresAt` among the parameters: the expiry was judged above, on our clock. The library
      // checks the signature over every parameter (cost and data included) and the derived key.
      let verified = false;
      try {
        const result = await verifySolution({
          challenge: { parameters: parameters as never, signature },
          solution: solution as never,
          deriveKey,
          hmacSignatureSecret: signatureKey,
          hmacKeySignatureSecret: keySignatureKey,
        });
        verified = result.verified;
      } catch {
        return 'invalid';
      }
      if (!verified) return 'invalid';
      const ttl = Math.max(1000, expiresAt - now() + 1000);
      const first = await store.setIfAbsent(`vc:pow:${sha256(signature)}`, '1', ttl);
      return first ? 'ok' : 'invalid';
    },
  };
}
