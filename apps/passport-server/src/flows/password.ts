import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import type { Channel } from '../domain/codes/codes';
import { normalisePassword } from '../domain/passwords/passwords';
import { assertNewPassword } from '../domain/passwords/policy';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { rateLimitKey } from '../lib/ip';
import { HOUR } from '../limits';
import { CodeType } from '../protocol';
import { completeSignIn } from './second-verify';
import { passwordFailureKey } from './sign-in';

/**
 * The password flows, once each: reset (by code, by ticket, and reset-and-login), change (by code or
 * ticket), update, set and has-set. The web routes and the legacy/mobile families call these and only
 * wrap the answer in their envelope. They return the envelope's `data` and throw PassportError.
 *
 * A reset for an address without an account needs a valid code first (sending that code behaves the
 * same for every target: send_code never looks up accounts), so ACCOUNT_NOT_FOUND only ever reaches
 * whoever owns the mobile or e-mail.
 */

/** Forgotten-password codes (spec §7: 4 or 6 reset). */
export const RESET_PURPOSES: ReadonlySet<number> = new Set([
  CodeType.resetPassword,
  CodeType.resetPasswordAlt,
]);
/** Signed-in change codes: 11 change password, 22 any verify step while signed in. */
export const CHANGE_PURPOSES: ReadonlySet<number> = new Set([CodeType.changePassword, CodeType.oldMobile]);

/** What a flow does after a new password is stored. */
type After = 'sign out here' | 'sign in anew';

/** The answer of every flow that stores a password: whose, and whether this browser holds a session. */
export interface PasswordChanged {
  user_id: string;
  signed_in: boolean;
}

const changed = (userId: string, signedIn: boolean): PasswordChanged => ({
  user_id: userId,
  signed_in: signedIn,
});

const identifiersOf = (user: Pick<User, 'mobile' | 'email' | 'username'>) => [
  user.mobile,
  user.email,
  user.username,
];

/** The rules for a new password (never applied to an existing one); answers it normalised. */
const policy = (app: FastifyInstance, password: string, identifiers: readonly (string | null)[]) =>
  assertNewPassword(password, { appName: app.config.appName, identifiers });

const targetOf = (app: FastifyInstance, channel: Channel, to: string) =>
  channel === 'mobile' ? mobileOf(app, to) : emailOf(to);

/**
 * Which reset-code purpose a request names (the first reset purpose by default); CODE_TYPE_INVALID for
 * any other, so a login or register code never resets a password.
 */
function resetPurpose(type: number | undefined): number {
  const purpose = type ?? CodeType.resetPassword;
  if (!RESET_PURPOSES.has(purpose)) throw new PassportError('codeTypeInvalid');
  return purpose;
}

/**
 * Stores a new password, kills every session of the account (SECURITY.md: a password reset kills
 * server state) and lifts its password locks. Then either this browser is signed in anew (a flow "and login", or a signed-in change
 * whose user stays signed in here on a fresh token) or, when it held a session of this account, that
 * session is gone and its cookie cleared.
 */
/** The store key counting wrong current passwords of a signed-in account (update locks on it too). */
const currentPasswordFailureKey = (userId: string) => `pw:fail:user:${userId}`;

/**
 * Lifts every password lock of the account: whoever proved a code or the current password owns it, and
 * the new password must not stay locked by the failures (perhaps a stranger's) that came before it.
 */
async function liftPasswordLocks(app: FastifyInstance, user: User) {
  await app.store.delete(currentPasswordFailureKey(user.id));
  for (const kind of ['mobile', 'email', 'username'] as const) {
    const value = user[kind];
    if (value) await app.store.delete(passwordFailureKey(kind, value));
  }
}

async function storeNewPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  password: string,
  after: After,
) {
  await app.accounts.setPasswordHash(user.id, await app.passwords.hash(password));
  await app.sessions.revokeAll(user.id);
  await liftPasswordLocks(app, user);
  if (after === 'sign in anew') {
    if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
    return app.sessions.signIn(request, reply, user.id);
  }
  if (request.session?.userId === user.id) await app.sessions.signOut(request, reply);
  return null;
}

export interface ResetByCode {
  channel: Channel;
  /** The mobile number or e-mail address as sent (normalised here). */
  to: string;
  code: string;
  type?: number | undefined;
  password: string;
}

/**
 * Checks a reset code and the new password (the password first, so a refused one costs no code); the
 * account, or ACCOUNT_NOT_FOUND after a valid code.
 */
async function checkReset(app: FastifyInstance, input: ResetByCode) {
  const target = targetOf(app, input.channel, input.to);
  const purpose = resetPurpose(input.type);
  const pw = policy(app, input.password, [target]);
  await app.codes.verify({ channel: input.channel, target, purpose, code: input.code });
  const user = await app.accounts.find({ kind: input.channel, value: target });
  if (!user) throw new PassportError('accountNotFound');
  policy(app, pw, identifiersOf(user));
  return { user, pw };
}

/** Resets a forgotten password with a reset code; every session dies and nobody is signed in. */
export async function resetByCode(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: ResetByCode,
): Promise<PasswordChanged> {
  const { user, pw } = await checkReset(app, input);
  await storeNewPassword(app, request, reply, user, pw, 'sign out here');
  return changed(user.id, false);
}

/** Resets a forgotten password with an e-mail (or SMS) reset code and signs this browser in anew. */
export async function resetAndLogin(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: ResetByCode,
) {
  const { user, pw } = await checkReset(app, input);
  await storeNewPassword(app, request, reply, user, pw, 'sign out here');
  // A sign-in like any other: an unknown device of an account with a mobile passes second verification
  // first (an e-mail code alone must not sign a new device in), unless the code went to that mobile.
  const proof = input.channel === 'mobile' ? 'mobileCode' : 'emailCode';
  return completeSignIn(app, request, reply, user, { newUser: false, proof });
}

/** Resets a password with the verify ticket of a reset code; every session dies. */
export async function resetByTicket(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { channel: Channel; ticket: string; password: string },
): Promise<PasswordChanged> {
  const demand = { ticket: input.ticket, purposes: RESET_PURPOSES, channel: input.channel };
  // Checked against the ticket's target before the ticket is spent: a refused password costs nothing.
  const claim = await app.tickets.peek(demand);
  const pw = policy(app, input.password, [claim.target]);
  const user = await app.accounts.find({ kind: claim.channel, value: claim.target });
  if (user) policy(app, pw, identifiersOf(user));
  await app.tickets.consume({ ...demand, target: claim.target });
  if (!user) throw new PassportError('accountNotFound');
  await storeNewPassword(app, request, reply, user, pw, 'sign out here');
  return changed(user.id, false);
}

/** The signed-in user, their own mobile or e-mail for a change, and the checked new password. */
function changeTarget(app: FastifyInstance, request: FastifyRequest, channel: Channel, password: string) {
  const { user } = requireSession(request);
  const target = channel === 'mobile' ? user.mobile : user.email;
  if (!target) throw new PassportError(channel === 'mobile' ? 'invalidMobile' : 'invalidEmail');
  return { user, target, pw: policy(app, password, identifiersOf(user)) };
}

/** Signed in: a new password with a code sent to the account's own mobile or e-mail (type 11 or 22). */
export async function changeByCode(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { channel: Channel; code: string; type?: number | undefined; password: string },
): Promise<PasswordChanged> {
  const { user, target, pw } = changeTarget(app, request, input.channel, input.password);
  const purpose = input.type ?? CodeType.changePassword;
  if (!CHANGE_PURPOSES.has(purpose)) throw new PassportError('codeTypeInvalid');
  await app.codes.verify({ channel: input.channel, target, purpose, code: input.code });
  await storeNewPassword(app, request, reply, user, pw, 'sign in anew');
  return changed(user.id, true);
}

/** Signed in: a new password with the verify ticket of such a code, bound to this user. */
export async function changeByTicket(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { channel: Channel; ticket: string; password: string },
): Promise<PasswordChanged> {
  const { user, target, pw } = changeTarget(app, request, input.channel, input.password);
  await app.tickets.consume({
    ticket: input.ticket,
    purposes: CHANGE_PURPOSES,
    channel: input.channel,
    target,
    userId: user.id,
  });
  await storeNewPassword(app, request, reply, user, pw, 'sign in anew');
  return changed(user.id, true);
}

/** A change request names a code (which wins) or a ticket; neither is INVALID_PARAM. */
export function changePassword(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    channel: Channel;
    code?: string | undefined;
    ticket?: string | undefined;
    type?: number | undefined;
    password: string;
  },
): Promise<PasswordChanged> {
  const { channel, code, ticket, type, password } = input;
  if (code !== undefined) return changeByCode(app, request, reply, { channel, code, type, password });
  if (ticket !== undefined) return changeByTicket(app, request, reply, { channel, ticket, password });
  throw new PassportError('invalidParam', { field: 'code' });
}

/**
 * Signed in: a new password, proving the current one. A wrong current password is a password failure
 * like a failed sign-in: it counts against the client address (the same counter as user/login) and
 * against the account, which locks for a while after passwordFailuresPerAccount of them. Signed-in or
 * not, a stolen session cookie buys no free guesses.
 */
export async function updatePassword(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { current_password: string; password: string },
): Promise<PasswordChanged> {
  const { user } = requireSession(request);
  const { store, runtime } = app;
  const limits = runtime.limits;
  const current = normalisePassword(input.current_password);
  const ipKey = `pw:fail:ip:${rateLimitKey(request.ip)}`;
  const accountKey = currentPasswordFailureKey(user.id);
  if ((await store.count(ipKey)) >= limits.passwordFailuresPerIpPerHour)
    throw new PassportError('rateLimited');
  if ((await store.count(accountKey)) >= limits.passwordFailuresPerAccount)
    throw new PassportError('temporarilyLocked');
  if (!user.password_hash) throw new PassportError('passwordNotSet');
  const pw = policy(app, input.password, identifiersOf(user));
  if (!(await app.passwords.verify(user.password_hash, current))) {
    await store.incr(ipKey, HOUR);
    await store.incr(accountKey, limits.passwordFailureWindowMs);
    throw new PassportError('currentPasswordWrong');
  }
  await store.delete(accountKey);
  await storeNewPassword(app, request, reply, user, pw, 'sign in anew');
  return changed(user.id, true);
}

/**
 * Signed in: a first password. It adds a way in and replaces nothing, so other sessions live on; a
 * conditional update, so of two concurrent sets one wins and the other gets PASSWORD_ALREADY_SET.
 */
export async function setPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { password: string },
): Promise<PasswordChanged> {
  const { user } = requireSession(request);
  if (user.password_hash) throw new PassportError('passwordAlreadySet');
  const pw = policy(app, input.password, identifiersOf(user));
  if (!(await app.accounts.setFirstPasswordHash(user.id, await app.passwords.hash(pw))))
    throw new PassportError('passwordAlreadySet');
  return changed(user.id, true);
}

/** Signed in: whether the account has a password. */
export function hasSetPassword(request: FastifyRequest) {
  return { has_set: requireSession(request).user.password_hash !== null };
}
