import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../../db/schema';
import { PassportError } from '../../errors';
import { networkKey, rateLimitKey } from '../../lib/ip';
import { HOUR } from '../../limits';
import { CodeType } from '../../protocol';
import { emailOf, mobileOf } from '../accounts/targets';
import type { Channel } from '../codes/codes';
import { currentPasswordFailureKey, passwordFailureKey } from './failures';
import { assertStrong, screenNewPassword } from './policy';

/**
 * What every flow that stores a password shares: the code purposes, the rules for a new password, and
 * storing it (every session dies, the locks lift).
 */

/** Forgotten-password codes (spec §7: 4 or 6 reset). */
export const RESET_PURPOSES: ReadonlySet<number> = new Set([
  CodeType.resetPassword,
  CodeType.resetPasswordAlt,
]);
/** Signed-in change codes: 11 change password, 22 any verify step while signed in. */
export const CHANGE_PURPOSES: ReadonlySet<number> = new Set([CodeType.changePassword, CodeType.oldMobile]);

/** The answer of every flow that stores a password: whose, and whether this browser holds a session. */
export interface PasswordChanged {
  user_id: string;
  signed_in: boolean;
}

export const changed = (userId: string, signedIn: boolean): PasswordChanged => ({
  user_id: userId,
  signed_in: signedIn,
});

export const identifiersOf = (user: Pick<User, 'mobile' | 'email' | 'username'>) => [
  user.mobile,
  user.email,
  user.username,
];

/**
 * The rules for a new password (never applied to an existing one); answers it normalised. The strength
 * estimator costs CPU (in its worker thread), and some routes run it before any code or ticket is
 * checked (so a refused password costs no code): each run is charged to the client address first (IPv6
 * by its /64), `limits.passwordChecksPerIpPerHour`, past which RATE_LIMITED answers before it runs; then
 * it waits its turn in the estimator's fair queue (`estimateOwner`).
 */
export async function policy(
  app: FastifyInstance,
  request: FastifyRequest,
  password: string,
  identifiers: readonly (string | null | undefined)[],
): Promise<string> {
  const screened = screenNewPassword(password, { appName: app.config.appName, identifiers });
  const key = `pwcheck:ip:${rateLimitKey(request.ip)}`;
  if ((await app.store.incr(key, HOUR)) > app.runtime.limits.passwordChecksPerIpPerHour)
    throw new PassportError('rateLimited');
  return assertStrong(screened, estimateOwner(request));
}

/**
 * Whose turn an estimate takes in the estimator's fair queue (src/domain/passwords/strength.ts): the
 * client's network (an IPv4 address, an IPv6 /48: one holder of a /48 has 65,536 /64s) and the signed-in
 * account. Not the identifier an anonymous request names (a reset, a registration): strangers naming
 * the owner's number would fill the owner's places.
 */
export function estimateOwner(request: FastifyRequest): { source: string; account: string | undefined } {
  return { source: networkKey(request.ip, 48) ?? rateLimitKey(request.ip), account: request.session?.userId };
}

export const targetOf = (app: FastifyInstance, channel: Channel, to: string) =>
  channel === 'mobile' ? mobileOf(app, to) : emailOf(to);

/**
 * Lifts the account's password locks from this request's address: whoever proved a code or the current
 * password owns it, and the new password must not stay locked by the failures that came before it.
 * The locks of other addresses stay: they fall on whoever failed there (src/domain/passwords/failures).
 */
export async function liftPasswordLocks(app: FastifyInstance, request: FastifyRequest, user: User) {
  await app.store.delete(currentPasswordFailureKey(user.id));
  for (const kind of ['mobile', 'email', 'username'] as const) {
    const value = user[kind];
    if (value) await app.store.delete(passwordFailureKey(kind, value, request.ip));
  }
}
