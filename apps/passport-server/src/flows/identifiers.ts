import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertStepUp, invoke, type Principal } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import { accountInfo } from '../domain/accounts/account-info';
import { type Channel, clientLaneOf, codeLaneOf, OWNER_LANE } from '../domain/codes/codes';
import { proveFactor } from '../domain/factors/factors';
import { usernameOf } from '../domain/identifiers/usernames';
import { currentPasswordIsRight } from '../domain/passwords/failures';
import { identifiersOf, policy, targetOf } from '../domain/passwords/new-password';
import { requireSession, type Session } from '../domain/sessions/sessions';
import {
  isVerificationPurpose,
  type VerificationMethod,
  type VerificationPurpose,
} from '../domain/verification-tickets/verification-tickets';
import { PassportError } from '../errors';
import {
  bindIdentifier,
  changeIdentifier,
  setAccountUsername,
  setAccountUsernameAndPassword,
} from '../operations/account/identifiers';
import { verifyStepUp } from '../operations/account/step-up';
import { CodeType } from '../protocol';

/**
 * Binding and changing a mobile or e-mail, proving it is you while signed in, and setting a username
 * with a password (issue 14 part 2; the rules in docs/identifiers.md).
 */

/** Codes each step accepts (spec §7): 8/17 bind; 20 new mobile; 7 new e-mail; 22 (and 11 for e-mail) verify. */
export const IDENTIFIER_PURPOSES = {
  bind: new Set<number>([CodeType.bind, CodeType.bindAlt]),
  change: {
    mobile: new Set<number>([CodeType.newMobile]),
    email: new Set<number>([CodeType.login]),
  },
  verify: {
    mobile: new Set<number>([CodeType.oldMobile]),
    email: new Set<number>([CodeType.oldMobile, CodeType.changePassword]),
  },
} as const;

const DEFAULT_PURPOSE = {
  bind: { mobile: CodeType.bind, email: CodeType.bind },
  change: { mobile: CodeType.newMobile, email: CodeType.login },
  verify: { mobile: CodeType.oldMobile, email: CodeType.oldMobile },
} as const;

function purposeOf(step: keyof typeof DEFAULT_PURPOSE, channel: Channel, type: number | undefined): number {
  const purpose = type ?? DEFAULT_PURPOSE[step][channel];
  const allowed = step === 'bind' ? IDENTIFIER_PURPOSES.bind : IDENTIFIER_PURPOSES[step][channel];
  if (!allowed.has(purpose)) throw new PassportError('codeTypeInvalid');
  return purpose;
}

function verificationPurpose(value: string | undefined): VerificationPurpose {
  if (value === undefined || value === '') return 'change_identifier';
  if (!isVerificationPurpose(value)) throw new PassportError('invalidParam', { field: 'purpose' });
  return value;
}

async function freshUser(app: FastifyInstance, session: Session) {
  const user = await app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', session.userId)
    .executeTakeFirst();
  if (!user) throw new PassportError('notLoggedIn');
  return user;
}

export interface BindInput {
  channel: Channel;
  to: string;
  code: string;
  type?: number | undefined;
  kick_other?: number | undefined;
  change_bind?: number | undefined;
}

export interface ChangeInput extends BindInput {
  ticket?: string | undefined;
  /** The mobile change's `old_mobile` (spec §3): when sent, it must be the account's mobile. */
  old_mobile?: string | undefined;
}

/**
 * Puts a mobile or e-mail on the signed-in account: the request's side of account.identifier.bind and
 * account.identifier.change (src/operations/account/identifiers.ts). A bind (the account has none) needs
 * a code to the new target and a step-up (the session verified recently; checked before the code, which
 * a refused bind leaves unspent); a change also needs a verification ticket this session earned
 * (auth/verify or account/verify), spent by the operation. The code is checked first (whoever asks has
 * proven the target before learning anything about it); a target another account holds is
 * IDENTIFIER_TAKEN, or with `change_bind` 1 moved off that account when it keeps another way in
 * (MOVE_WOULD_LOCK_OUT otherwise). `kick_other` 1 ends every other session of the account.
 */
export async function putIdentifier(
  app: FastifyInstance,
  request: FastifyRequest,
  step: 'bind' | 'change',
  input: ChangeInput,
) {
  const session = requireSession(request);
  const { channel } = input;
  const to = targetOf(app, channel, input.to);
  const user = await freshUser(app, session);
  const from = user[channel];
  const operation = step === 'bind' ? bindIdentifier : changeIdentifier;
  const principal: Principal = {
    kind: 'person',
    user,
    verifiedAt: session.verifiedAt,
    sessionId: session.id,
  };
  if (step === 'bind' && from) throw new PassportError('identifierBound', { channel });
  if (step === 'bind') await assertStepUp(app, app.db, operation, principal);
  if (step === 'change') {
    if (!from) throw new PassportError('identifierNotBound', { channel });
    if (from === to) throw new PassportError('identifierSame');
    if (input.old_mobile !== undefined && targetOf(app, channel, input.old_mobile) !== from)
      throw new PassportError('notYourIdentifier');
    if (input.ticket === undefined || input.ticket === '') throw new PassportError('verificationRequired');
  }
  const purpose = purposeOf(step, channel, input.type);
  await app.codes.verify({
    channel,
    target: to,
    purpose,
    code: input.code,
    lane: await codeLaneOf(app, request, channel, to),
  });
  const { kicked_sessions, moved } = await invoke(
    app,
    operation,
    {
      channel,
      to,
      ...(input.change_bind !== undefined ? { change_bind: input.change_bind } : {}),
      ...(input.kick_other !== undefined ? { kick_other: input.kick_other } : {}),
      ...(input.ticket !== undefined ? { ticket: input.ticket } : {}),
    },
    principal,
    requestOf(app, request),
    { gate: gateFor(app, request) },
  );
  const updated = await freshUser(app, session);
  request.session = { ...session, user: updated };
  return { ...accountInfo(request.session), kicked_sessions, moved };
}

/** What a verification answers: the ticket for the next step, its lifetime and how it was earned. */
/**
 * A verification renews the session's step-up clock (src/domain/sessions/step-up.ts) and answers a
 * ticket for the next step: the operation, once the request's side has checked the proof.
 */
function verified(
  app: FastifyInstance,
  request: FastifyRequest,
  proof: { method: VerificationMethod; purpose: VerificationPurpose; factor?: boolean },
) {
  const input = { method: proof.method, purpose: proof.purpose, factor: proof.factor ?? false };
  return invoke(app, verifyStepUp, input, principalOf(request), requestOf(app, request), {
    gate: gateFor(app, request),
  });
}

/**
 * auth/verify: the signed-in person proves it is them with a code (type 22, or 11 for e-mail) sent to
 * the account's own mobile or e-mail; answers a verification ticket bound to this session.
 */
export async function verifyByCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    channel: Channel;
    to: string;
    code: string;
    type?: number | undefined;
    purpose?: string | undefined;
  },
) {
  const session = requireSession(request);
  const purpose = verificationPurpose(input.purpose);
  const { channel } = input;
  const to = targetOf(app, channel, input.to);
  const own = (await freshUser(app, session))[channel];
  if (!own) throw new PassportError('identifierNotBound', { channel });
  if (own !== to) throw new PassportError('notYourIdentifier');
  await app.codes.verify({
    channel,
    target: own,
    purpose: purposeOf('verify', channel, input.type),
    code: input.code,
    lane: await codeLaneOf(app, request, channel, own),
  });
  return verified(app, request, { method: channel, purpose });
}

/**
 * auth/verify with `method` (`totp`, `recovery_code`, or a factor registered later,
 * src/domain/factors): the signed-in person proves it is them with a factor the account has; the
 * guess is charged to the account's factor budget in the owner's lane. Answers a verification ticket
 * bound to this session, as a code does.
 */
export async function verifyByFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    method: string;
    code?: string | undefined;
    credential?: string | undefined;
    purpose?: string | undefined;
  },
) {
  const session = requireSession(request);
  const purpose = verificationPurpose(input.purpose);
  await proveFactor(app, {
    userId: session.userId,
    method: input.method,
    // A passkey's answer is bound to this browser: `client` names it.
    proof: { code: input.code, credential: input.credential, client: clientLaneOf(app, request) },
    lane: OWNER_LANE,
  });
  // Every registered factor is a second factor: what an organisation's requirement asks for.
  return verified(app, request, { method: input.method, purpose, factor: true });
}

/**
 * Checks the signed-in account's current password. A wrong one is a password failure like
 * password/update's: it counts against the client address and the account (which then locks for a
 * while), so a stolen session cookie buys no free guesses.
 */
async function proveCurrentPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string,
  hash: string,
  password: string,
) {
  if (!(await currentPasswordIsRight(app, request.ip, userId, hash, password)))
    throw new PassportError('currentPasswordWrong');
}

/** account/verify: the signed-in person proves it is them with the account's password. */
export async function verifyByPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { password: string; purpose?: string | undefined },
) {
  const session = requireSession(request);
  const purpose = verificationPurpose(input.purpose);
  const user = await freshUser(app, session);
  if (!user.password_hash) throw new PassportError('passwordNotSet');
  await proveCurrentPassword(app, request, user.id, user.password_hash, input.password);
  return verified(app, request, { method: 'password', purpose });
}

/**
 * Set account: a username and a password together. An account without a password gets both (the
 * password under the rules for new ones), after a step-up; an account with one proves it with
 * `password` (the current one, itself a fresh verification) and gets the username. Either way the person then signs in with username + password.
 */
export async function setAccount(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { username: string; password: string },
) {
  const session = requireSession(request);
  const user = await freshUser(app, session);
  if (user.username) throw new PassportError('usernameAlreadySet');
  const username = usernameOf(input.username);
  const principal: Principal = {
    kind: 'person',
    user,
    verifiedAt: session.verifiedAt,
    sessionId: session.id,
  };
  const context = [principal, requestOf(app, request), { gate: gateFor(app, request) }] as const;
  if (user.password_hash) {
    await proveCurrentPassword(app, request, user.id, user.password_hash, input.password);
    await invoke(app, setAccountUsername, { username }, ...context);
  } else {
    await assertStepUp(app, app.db, setAccountUsernameAndPassword, principal);
    const pw = await policy(app, request, input.password, [...identifiersOf(user), username]);
    const hash = await app.passwords.hash(pw);
    await invoke(app, setAccountUsernameAndPassword, { username, password_hash: hash }, ...context);
  }
  request.session = { ...session, user: await freshUser(app, session) };
  return accountInfo(request.session);
}
