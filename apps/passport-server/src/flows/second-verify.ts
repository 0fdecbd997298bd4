import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../adapters/invoke';
import type { User } from '../db/schema';
import { clientLaneOf } from '../domain/codes/codes';
import { proveFactor } from '../domain/factors/factors';
import { pendingSignIn, takePendingSignIn } from '../domain/second-verify/pending';
import type { SignInProof } from '../domain/sessions/browser';
import { PassportError } from '../errors';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import { CodeType } from '../protocol';
import { admitSignIn } from './complete-sign-in';

/**
 * Second verification (spec §4, §8; issue 4 item 4). A sign-in whose credential was right, for an
 * account with a mobile, from a device the account has not remembered, does not create a session: it
 * fails with SECOND_VERIFY (2046) carrying a single-use `sms_code_key` and the masked mobile
 * (flows/complete-sign-in). The key sends a type-24 code to the account's mobile (`send_code` with
 * `sms_code_key`) and, with that code, `sms_login_continue` finishes the sign-in and remembers the device.
 */

/** `send_code` with `sms_code_key`: a type-24 code to the mobile of the pending sign-in. */
export async function sendSecondVerifyCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { smsCodeKey: string; type: number | undefined; method?: string | undefined },
) {
  if (input.type !== undefined && input.type !== CodeType.mobileLogin)
    throw new PassportError('codeTypeInvalid');
  if (input.method === 'email') return sendSecondVerifyEmail(app, request, input.smsCodeKey);
  if (input.method !== undefined && input.method !== 'sms') throw new PassportError('factorUnavailable');
  const pending = await pendingSignIn(app, request, input.smsCodeKey);
  // An account verified by another factor only (src/domain/factors) has no mobile to send to.
  if (!pending.mobile) throw new PassportError('factorUnavailable');
  await app.risk.require(request, 'sendCode', { target: `mobile:${pending.mobile}` });
  const sent = await app.codes.send({
    channel: 'mobile',
    target: pending.mobile,
    purpose: CodeType.mobileLogin,
    ip: request.ip,
    language: languageOf(request),
    // A second verification comes from a device the account does not know: the lane of the browser
    // that holds the key, so strangers' guesses elsewhere never spend its code.
    lane: clientLaneOf(app, request),
    // The key exists only after the password was right: its sends are not the strangers' to use up.
    proof: 'password',
  });
  return { mobile: mask(pending.mobile), retry_time: sent.retryAfter, expires_in: sent.expiresIn };
}

/**
 * `send_code` with `sms_code_key` and `method: email`: a type-24 code to the verified e-mail of the
 * pending sign-in's account, in this browser's lane, with the second verification's own send counts.
 */
async function sendSecondVerifyEmail(app: FastifyInstance, request: FastifyRequest, smsCodeKey: string) {
  const pending = await pendingSignIn(app, request, smsCodeKey);
  if (!pending.email) throw new PassportError('factorUnavailable');
  await app.risk.require(request, 'sendCode', { target: `email:${pending.email}` });
  const sent = await app.codes.send({
    channel: 'email',
    target: pending.email,
    purpose: CodeType.mobileLogin,
    ip: request.ip,
    language: languageOf(request),
    lane: clientLaneOf(app, request),
    proof: 'password',
  });
  return { email: mask(pending.email), retry_time: sent.retryAfter, expires_in: sent.expiresIn };
}

/**
 * `sms_login_continue`, before its operation (src/operations/sign-in/credentials.ts): the code sent to
 * the pending sign-in's mobile (type 24), or with `method: email` to its e-mail, proves it. A wrong
 * code counts against the code's 5 guesses and leaves the key alive; the right one spends the code,
 * then the key (of concurrent continuations one wins); the operation signs in with a new token as a
 * code sign-in to the account's own mobile (which remembers the device) or e-mail.
 */
export async function proveSecondVerify(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    smsCodeKey: string;
    code?: string | undefined;
    method?: string | undefined;
    credential?: string | undefined;
  },
): Promise<Principal> {
  const channel = input.method === 'email' ? 'email' : 'mobile';
  if (channel === 'mobile' && input.method !== undefined && input.method !== 'sms')
    return proveWithFactor(app, request, input);
  if (input.code === undefined) throw new PassportError('invalidParam', { field: 'code' });
  const pending = await pendingSignIn(app, request, input.smsCodeKey);
  const target = channel === 'email' ? pending.email : pending.mobile;
  if (!target) throw new PassportError('factorUnavailable');
  const risk = { target: `${channel}:${target}` };
  await app.risk.require(request, 'signIn', risk);
  await app.codes
    .verify({
      channel,
      target,
      purpose: CodeType.mobileLogin,
      code: input.code,
      lane: clientLaneOf(app, request),
    })
    .catch(async (error: unknown) => {
      await app.risk.recordFailure(request, risk);
      throw error;
    });
  const user = await spendPending(app, request, input.smsCodeKey, pending.userId, risk);
  // The account lost or changed the identifier meanwhile: the code proved one that is no longer its.
  if ((channel === 'email' ? user.email : user.mobile) !== target) throw new PassportError('ticketInvalid');
  return admitSignIn(app, request, user, {
    newUser: false,
    proof: channel === 'email' ? 'emailFactor' : 'mobileCode',
    subject: pending.subject,
  });
}

/**
 * `sms_login_continue` with `method` (`totp`, `recovery_code`, or a factor registered later,
 * src/domain/factors): the factor's proof for the pending sign-in's account finishes it as the SMS
 * code does. Its guesses are charged to the account's factor budget in this browser's lane; the key is
 * spent only by a right proof.
 */
async function proveWithFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  input: {
    smsCodeKey: string;
    code?: string | undefined;
    method?: string | undefined;
    credential?: string | undefined;
  },
): Promise<Principal> {
  const pending = await pendingSignIn(app, request, input.smsCodeKey);
  const method = input.method ?? '';
  const risk = { target: `user:${pending.userId}` };
  await app.risk.require(request, 'signIn', risk);
  await proveFactor(app, {
    userId: pending.userId,
    method,
    // A passkey's answer is bound to this browser: `client` names it.
    proof: { code: input.code, credential: input.credential, client: clientLaneOf(app, request) },
    lane: clientLaneOf(app, request),
  }).catch(async (error: unknown) => {
    await app.risk.recordFailure(request, risk);
    throw error;
  });
  const user = await spendPending(app, request, input.smsCodeKey, pending.userId, risk);
  return admitSignIn(app, request, user, {
    newUser: false,
    proof: PROOF_OF[method] ?? 'factor',
    subject: pending.subject,
  });
}

/** How a second verification answered with a factor was proven, as the sign-in records it. */
const PROOF_OF: Record<string, SignInProof> = {
  totp: 'totp',
  recovery_code: 'recoveryCode',
  passkey: 'passkey',
};

/**
 * Once a proof was right: spends the pending sign-in's key (of concurrent continuations one wins),
 * clears the risk rule's failures and answers the account, which must still exist.
 */
async function spendPending(
  app: FastifyInstance,
  request: FastifyRequest,
  smsCodeKey: string,
  userId: string,
  risk: { target: string },
): Promise<User> {
  if (!(await takePendingSignIn(app, smsCodeKey))) throw new PassportError('ticketInvalid');
  await app.risk.recordSuccess(request, risk);
  const user = await app.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw new PassportError('ticketInvalid');
  return user;
}
