import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { hmac, sha256 } from '../../lib/crypto';
import type { Store } from '../../store/store';

/**
 * The proof-of-work stage of every challenge, on ALTCHA's audited scheme (`altcha-lib`, v1 API):
 * the server picks a secret number below `maxnumber`, sends SHA-256(salt + number) signed with an
 * HMAC, and the browser finds the number by brute force in a worker. A person's browser spends a
 * second or so; a bot pays it again for every try, on every address.
 *
 * What we add on top of the library: the salt carries the challenge id, the puzzle's serial, the mode
 * (puzzle or the accessible route) and an expiry, all covered by the signature (they are hashed into
 * the challenge the HMAC signs), so a solution answers exactly one puzzle of one challenge id; it is
 * spent in the store on first use (no replay, on any instance); the expiry is judged on the server's
 * injectable clock, never the library's `Date.now()`; and only SHA-256 is accepted.
 */

/** What the client receives: ALTCHA's challenge object (the widget's `challengejson`). */
export interface PowChallenge {
  algorithm: 'SHA-256';
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** The route the work is for: a drawn puzzle, or the accessible route (harder, with a cooldown). */
export type PowMode = 'puzzle' | 'accessible';

export interface PowBinding {
  challengeId: string;
  serial: number;
  mode: PowMode;
}

export type PowVerdict = 'ok' | 'invalid';

export interface Pow {
  issue(binding: PowBinding, maxnumber: number, ttlMs: number): Promise<PowChallenge>;
  /** Checks a solution (the widget's base64 payload) against its binding and spends it; 'ok' once. */
  spend(payload: string, binding: PowBinding): Promise<PowVerdict>;
}

const MODES: Record<PowMode, string> = { puzzle: 'p', accessible: 'a' };
/** A base64 JSON payload of ALTCHA's shape is well under this. */
export const POW_PAYLOAD_MAX = 1024;

interface SolutionPayload {
  algorithm: unknown;
  challenge: unknown;
  number: unknown;
  salt: unknown;
  signature: unknown;
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
  // A key of its own, derived from the server secret: a leaked PoW key says nothing about CSRF tokens.
  const key = hmac(secret, 'vc|pow|altcha');
  return {
    async issue(binding, maxnumber, ttlMs) {
      const challenge = await createChallenge({
        algorithm: 'SHA-256',
        hmacKey: key,
        maxnumber,
        params: {
          cid: binding.challengeId,
          s: String(binding.serial),
          m: MODES[binding.mode],
        },
        expires: new Date(now() + ttlMs),
      });
      return { ...challenge, algorithm: 'SHA-256', maxnumber };
    },

    async spend(payload, binding) {
      const solution = decode(payload);
      if (
        solution?.algorithm !== 'SHA-256' ||
        typeof solution.challenge !== 'string' ||
        typeof solution.salt !== 'string' ||
        typeof solution.signature !== 'string' ||
        typeof solution.number !== 'number' ||
        !Number.isSafeInteger(solution.number) ||
        solution.number < 0
      ) {
        return 'invalid';
      }
      const params = extractParams({ salt: solution.salt } as never);
      const expires = Number(params.expires) * 1000;
      if (
        params.cid !== binding.challengeId ||
        params.s !== String(binding.serial) ||
        params.m !== MODES[binding.mode] ||
        !Number.isFinite(expires) ||
        expires <= now()
      ) {
        return 'invalid';
      }
      // The expiry was checked above on our clock; the library checks hash and signature.
      if (!(await verifySolution(solution as never, key, false))) return 'invalid';
      const ttl = Math.max(1000, expires - now() + 1000);
      const first = await store.setIfAbsent(`vc:pow:${sha256(solution.challenge)}`, '1', ttl);
      return first ? 'ok' : 'invalid';
    },
  };
}
