import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PassportError } from '../../errors';
import { sha256 } from '../../lib/crypto';
import { rateLimitKey } from '../../lib/ip';
import { HOUR } from '../../limits';
import type { Identifier } from '../accounts/accounts';
import { normalisePassword } from './passwords';

/**
 * The store key counting wrong passwords given for one identifier from one client address (IPv6 by
 * its /64): the temporary lock falls on that pair, the attacker's side, never on the account for
 * everyone (issue 9 item 2). Across addresses the account's failures bring a challenge (src/domain/risk).
 */
export const passwordFailureKey = (kind: Identifier['kind'] | 'invalid', value: string, ip: string) =>
  `pw:fail:id:${kind}:${value}:ip:${rateLimitKey(ip)}`;

/** The store key counting wrong passwords from one client address (IPv6 by its /64), sign-in and update alike. */
export const passwordIpFailureKey = (ip: string) => `pw:fail:ip:${rateLimitKey(ip)}`;

/** The store key counting wrong current passwords of a signed-in account (update locks on it too). */
export const currentPasswordFailureKey = (userId: string) => `pw:fail:user:${userId}`;

/** The counters a password sign-in's guess is charged to: the lock's and the hourly one. */
export interface GuessCounters {
  lockKey: string;
  hourlyKey: string;
}

/**
 * Where a password sign-in's guess is counted. From a device the account remembers (a live device token
 * it issued, src/domain/devices): on that device, the lock per identifier and device and the hourly
 * count per device, so strangers behind the same address (an office, a carrier NAT) who fail never lock
 * the owner there, and the device's own failures still lock it. From anywhere else: per identifier and
 * address, and per address (the attacker's side, as before).
 */
export function signInGuessCounters(
  app: FastifyInstance,
  request: FastifyRequest,
  identifier: { kind: Identifier['kind'] | 'invalid'; value: string },
  rememberedDevice: boolean,
): GuessCounters {
  const token = rememberedDevice ? request.cookies?.[app.devices.cookieName] : undefined;
  if (!token) {
    return {
      lockKey: passwordFailureKey(identifier.kind, identifier.value, request.ip),
      hourlyKey: passwordIpFailureKey(request.ip),
    };
  }
  const device = sha256(`pwlock|${token}`);
  return {
    lockKey: `pw:fail:id:${identifier.kind}:${identifier.value}:dev:${device}`,
    hourlyKey: `pw:fail:dev:${device}`,
  };
}

/**
 * The store key counting passwords judged for one identifier from addresses whose own lock is closed
 * (`passwordFailureKey`), whichever address: the locked lane's budget (`chargePasswordGuess`).
 */
export const lockedLaneKey = (kind: Identifier['kind'] | 'invalid', value: string) =>
  `pw:fail:locked:id:${kind}:${value}`;

/** A password guess charged to its counters: settle it once the hash has judged it, or not. */
export interface PasswordGuess {
  /**
   * The guess came through the locked lane: the lock on this identifier and address was closed, and
   * the guess was judged on the identifier's locked-lane budget instead. A right password there signs
   * nobody in: it leads to a second verification by the account's own channel (flows/password-sign-in).
   */
  readonly locked: boolean;
  /** The password was right: the address's charge is given back and the lock's count cleared. */
  right(): Promise<void>;
  /** The guess was never judged (refused before the hash, or failed): both charges are given back. */
  refund(): Promise<void>;
}

/**
 * Charges one password guess to the client address's hourly count (or `hourlyKey`'s: a remembered
 * device's, `signInGuessCounters`) and to the lock's count (`lockKey`)
 * before the hash is checked, so that parallel guesses cannot race past either: each is an atomic
 * increment in the store (SQLite, PostgreSQL and Redis alike), and only the first
 * passwordFailuresPerIpPerHour / passwordFailuresPerAccount guesses get a verdict; the others are
 * answered RATE_LIMITED / TEMPORARILY_LOCKED and given their charge back. A wrong guess keeps its charge:
 * that is the failure counted. (Read first and counted after the verdict, 30 parallel wrong passwords
 * were all judged.)
 */
export async function chargePasswordGuess(
  app: FastifyInstance,
  ip: string,
  lockKey: string,
  hourlyKey = passwordIpFailureKey(ip),
  lockedLane?: string,
): Promise<PasswordGuess> {
  const { store, runtime } = app;
  const limits = runtime.limits;
  const ipKey = hourlyKey;
  const giveBack = (key: string) =>
    store
      .decrement(key)
      .catch((error: unknown) => app.log.warn({ err: error }, 'password charge refund failed'));
  if ((await store.incr(ipKey, HOUR)) > limits.passwordFailuresPerIpPerHour) {
    await giveBack(ipKey);
    throw new PassportError('rateLimited');
  }
  let locked: boolean;
  try {
    locked = (await store.incr(lockKey, limits.passwordFailureWindowMs)) > limits.passwordFailuresPerAccount;
  } catch (error) {
    await giveBack(ipKey);
    throw error;
  }
  if (locked) {
    await giveBack(lockKey);
    // The locked lane (docs/security.md, "A shared address that strangers locked"): the guess is judged
    // on the identifier's own budget across locked addresses, or refused when that is spent too.
    if (lockedLane === undefined) {
      await giveBack(ipKey);
      throw new PassportError('temporarilyLocked');
    }
    let laneCount: number;
    try {
      laneCount = await store.incr(lockedLane, limits.passwordFailureWindowMs);
    } catch (error) {
      await giveBack(ipKey);
      throw error;
    }
    if (laneCount > limits.lockedLaneGuessesPerAccount) {
      await Promise.all([giveBack(ipKey), giveBack(lockedLane)]);
      throw new PassportError('temporarilyLocked');
    }
    return {
      locked: true,
      // The lock stays closed for this address: only the second verification opens the way in.
      async right() {
        await Promise.all([giveBack(ipKey), giveBack(lockedLane)]);
      },
      async refund() {
        await Promise.all([giveBack(ipKey), giveBack(lockedLane)]);
      },
    };
  }
  return {
    locked: false,
    async right() {
      await Promise.all([giveBack(ipKey), store.delete(lockKey)]);
    },
    async refund() {
      await Promise.all([giveBack(ipKey), giveBack(lockKey)]);
    },
  };
}

/**
 * Checks a signed-in account's current password (password/update, account/verify, cancellation,
 * a subject's creation) against its hash: a charged guess (`chargePasswordGuess`) on the client
 * address and on the account's lock, so a stolen session buys no free guesses, in series or in parallel.
 * `before` runs between the charge and the verdict: a check that may refuse first (the guess is then
 * refunded, never judged).
 */
export async function currentPasswordIsRight(
  app: FastifyInstance,
  ip: string,
  userId: string,
  hash: string | null,
  password: string,
  before?: () => Promise<void>,
): Promise<boolean> {
  const normalised = normalisePassword(password);
  const guess = await chargePasswordGuess(app, ip, currentPasswordFailureKey(userId));
  let right: boolean;
  try {
    await before?.();
    right = await app.passwords.verify(hash, normalised);
  } catch (error) {
    await guess.refund();
    throw error;
  }
  if (right) await guess.right();
  return right;
}
