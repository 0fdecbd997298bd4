import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../adapters/invoke';
import type { User } from '../db/schema';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
import { PassportError } from '../errors';
import { recordAccountEvent } from '../events/record';
import { SIGN_IN_PURPOSES } from '../lib/purposes';
import { signInByEmailCode, signInByMobileCode } from '../operations/sign-in/credentials';
import { CodeType } from '../protocol';
import { admitSignIn, signInThrough } from './complete-sign-in';

/** The code sign-ins: which channel, which purposes they consume, whether they may create an account. */
export const CODE_SIGN_INS = {
  /** sms_login: signs in or registers. */
  sms: {
    channel: 'mobile',
    allowed: SIGN_IN_PURPOSES.smsLogin,
    fallback: CodeType.mobileLogin,
    register: true,
  },
  /** sms_login_only: existing accounts only (ACCOUNT_NOT_FOUND after the code is verified). */
  smsOnly: {
    channel: 'mobile',
    allowed: SIGN_IN_PURPOSES.smsLoginOnly,
    fallback: CodeType.mobileLogin,
    register: false,
  },
  /** email/code_login: signs in or registers. */
  email: {
    channel: 'email',
    allowed: SIGN_IN_PURPOSES.emailCodeLogin,
    fallback: CodeType.emailLogin,
    register: true,
  },
  /** sms/authorize: the authorization page's SMS sign-in (or sign-up), purpose 26 or 27. */
  smsAuthorize: {
    channel: 'mobile',
    allowed: SIGN_IN_PURPOSES.smsAuthorize,
    fallback: CodeType.smsAuthorize,
    register: true,
  },
} as const satisfies Record<
  string,
  { channel: Channel; allowed: ReadonlySet<number>; fallback: number; register: boolean }
>;

export type CodeSignInKind = keyof typeof CODE_SIGN_INS;

/**
 * Proves a code sign-in (or sign-up), before its operation (src/operations/sign-in/credentials.ts) and
 * outside its transaction: the code is bound to its purpose and target, checked in the lane of the
 * request's device under the risk rules; a new account for the contact is made once it is proven;
 * then second verification.
 */
export async function proveCode(
  app: FastifyInstance,
  request: FastifyRequest,
  kind: CodeSignInKind,
  input: { to: string; code: string; type: number | undefined },
  /** Runs once the code is proven and the account known, before the sign-in ends (a third-party link). */
  onProven?: (user: User) => Promise<void>,
): Promise<Principal> {
  const { channel, allowed, fallback, register } = CODE_SIGN_INS[kind];
  const target = channel === 'mobile' ? mobileOf(app, input.to) : emailOf(input.to);
  const purpose = input.type ?? fallback;
  if (!allowed.has(purpose)) throw new PassportError('codeTypeInvalid');
  const lane = await codeLaneOf(app, request, channel, target);
  const risk = { target: `${channel}:${target}`, knownDevice: lane === 'owner' };
  await app.risk.require(request, 'signIn', risk);
  await app.codes
    .verify({ channel, target, purpose, code: input.code, lane })
    .catch(async (error: unknown) => {
      await app.risk.recordFailure(request, risk);
      // The account's owner sees wrong codes entered for it.
      const owner = await app.accounts.find({ kind: channel, value: target });
      if (owner)
        await recordAccountEvent(app, request, app.db, {
          type: 'account.sign_in_failed',
          userId: owner.id,
          anonymous: true,
          data: { method: channel === 'mobile' ? 'mobileCode' : 'emailCode', reason: 'wrong_code' },
        });
      throw error;
    });
  const identifier = { kind: channel, value: target } as const;
  const proof = channel === 'mobile' ? 'mobileCode' : 'emailCode';
  if (!register) {
    const user = await app.accounts.find(identifier);
    if (!user) throw new PassportError('accountNotFound');
    await onProven?.(user);
    return admitSignIn(app, request, user, { newUser: false, proof });
  }
  const { user, created } = await app.accounts.findOrCreate(identifier);
  await onProven?.(user);
  return admitSignIn(app, request, user, { newUser: created, proof });
}

/** A code sign-in outside an operation route (the sso and open rows, a third-party link): proven, signed in. */
export async function codeSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CodeSignInKind,
  input: { to: string; code: string; type: number | undefined },
  onProven?: (user: User) => Promise<void>,
) {
  const principal = await proveCode(app, request, kind, input, onProven);
  const { to, code, type } = input;
  return CODE_SIGN_INS[kind].channel === 'mobile'
    ? signInThrough(app, request, reply, signInByMobileCode, { mobile: to, code, type }, principal)
    : signInThrough(app, request, reply, signInByEmailCode, { email: to, code, type }, principal);
}
