import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { PassportError } from '../errors';
import { hmac, randomToken, sha256 } from '../lib/crypto';
import { mask } from '../lib/identifiers';
import { accountInfo, languageOf } from '../lib/respond';
import { CodeType, LIMITS } from '../protocol';

/**
 * Second verification (spec §4, §8; issue 4 item 4). A sign-in whose credential was right, for an
 * account with a mobile, from a device the account has not remembered, does not create a session: it
 * fails with SECOND_VERIFY (2046) carrying a single-use `sms_code_key` and the masked mobile. The key
 * sends a type-24 code to the account's mobile (`send_code` with `sms_code_key`) and, with that code,
 * `sms_login_continue` finishes the sign-in and remembers the device.
 */

/** How the credential of a sign-in was proven. */
export type SignInProof = 'password' | 'mobileCode' | 'emailCode';

/** How long a `sms_code_key` lives: one code's lifetime (10 minutes). */
export const SECOND_VERIFY_TTL_MS = 10 * 60_000;

/** The pending sign-in behind a `sms_code_key`, kept in the store under SHA-256 of the key. */
interface Pending {
  userId: string;
  /** E.164: where the code goes. The client sees only the mask. */
  mobile: string;
  /** SHA-256 of the device (fingerprint + did) the sign-in came from; '' when it sent none. */
  device: string;
  /** HMAC of the browser's pre-session (or session) id: the key works only in the browser that got it. */
  holder: string;
  expiresAt: number;
}

const storeKey = (smsCodeKey: string) => `sv:${sha256(smsCodeKey)}`;

/** The browser a request comes from: its session or pre-session id (the CSRF binding), keyed. */
function holderOf(app: FastifyInstance, request: FastifyRequest): string {
  if (request.session) return hmac(app.secret, `sv|s|${request.session.id}`);
  if (request.preSessionId) return hmac(app.secret, `sv|p|${request.preSessionId}`);
  return '';
}

/**
 * Ends every sign-in once its credential is proven: a frozen account gets ACCOUNT_FROZEN; a new
 * account, a sign-in by an SMS code to the account's own mobile (it proves the second factor itself),
 * an account without a mobile, or a remembered device signs in (and the device is remembered or
 * refreshed); anything else answers SECOND_VERIFY with a fresh `sms_code_key`.
 */
export async function completeSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  options: { newUser: boolean; proof: SignInProof },
) {
  if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
  const direct =
    !app.config.secondVerify ||
    options.newUser ||
    options.proof === 'mobileCode' ||
    !user.mobile ||
    (await app.devices.isRemembered(user.id, app.devices.keyOf(request)));
  if (!direct && user.mobile) throw await demandSecondVerify(app, request, user.id, user.mobile);
  const session = await app.sessions.signIn(request, reply, user.id);
  await app.devices.remember(user.id, request);
  return accountInfo(session, { newUser: options.newUser });
}

/** Stores the pending sign-in and builds the 2046 failure that names its key. */
async function demandSecondVerify(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string,
  mobile: string,
): Promise<PassportError> {
  const key = randomToken(32);
  const pending: Pending = {
    userId,
    mobile,
    device: app.devices.keyOf(request) ?? '',
    holder: holderOf(app, request),
    expiresAt: app.runtime.now() + SECOND_VERIFY_TTL_MS,
  };
  await app.store.set(storeKey(key), JSON.stringify(pending), SECOND_VERIFY_TTL_MS);
  return new PassportError('secondVerify', {
    sms_code_key: key,
    mobile: mask(mobile),
    expires_in: SECOND_VERIFY_TTL_MS / 1000,
  });
}

/** The live pending sign-in of a key, when this request comes from its device and browser. */
async function pendingOf(app: FastifyInstance, request: FastifyRequest, smsCodeKey: string) {
  if (!smsCodeKey || smsCodeKey.length > LIMITS.smsCodeKeyMaxLength) throw new PassportError('ticketInvalid');
  let pending: Pending | null = null;
  try {
    pending = JSON.parse((await app.store.get(storeKey(smsCodeKey))) ?? 'null') as Pending | null;
  } catch {}
  if (
    !pending ||
    pending.expiresAt <= app.runtime.now() ||
    pending.device !== (app.devices.keyOf(request) ?? '') ||
    pending.holder !== holderOf(app, request)
  ) {
    throw new PassportError('ticketInvalid');
  }
  return pending;
}

/** `send_code` with `sms_code_key`: a type-24 code to the mobile of the pending sign-in. */
export async function sendSecondVerifyCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { smsCodeKey: string; type: number | undefined },
) {
  if (input.type !== undefined && input.type !== CodeType.mobileLogin)
    throw new PassportError('codeTypeInvalid');
  const pending = await pendingOf(app, request, input.smsCodeKey);
  await app.risk.require(request, 'sendCode', { target: `mobile:${pending.mobile}` });
  const sent = await app.codes.send({
    channel: 'mobile',
    target: pending.mobile,
    purpose: CodeType.mobileLogin,
    ip: request.ip,
    language: languageOf(request),
  });
  return { mobile: mask(pending.mobile), retry_time: sent.retryAfter, expires_in: sent.expiresIn };
}

/**
 * `sms_login_continue`: the code for the pending sign-in's mobile (type 24) finishes it. A wrong code
 * counts against the code's 5 guesses and leaves the key alive; the right one spends the code, then
 * the key (of concurrent continuations one wins), remembers the device and signs in with a new token.
 */
export async function continueSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { smsCodeKey: string; code: string },
) {
  const pending = await pendingOf(app, request, input.smsCodeKey);
  const risk = { target: `mobile:${pending.mobile}` };
  await app.risk.require(request, 'signIn', risk);
  await app.codes
    .verify({ channel: 'mobile', target: pending.mobile, purpose: CodeType.mobileLogin, code: input.code })
    .catch(async (error: unknown) => {
      await app.risk.recordFailure(request, risk);
      throw error;
    });
  if (!(await app.store.take(storeKey(input.smsCodeKey)))) throw new PassportError('ticketInvalid');
  await app.risk.recordSuccess(request, risk);
  const user = await app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', pending.userId)
    .executeTakeFirst();
  // The account lost or changed its mobile meanwhile: the code proved a number that is no longer its.
  if (!user || user.mobile !== pending.mobile) throw new PassportError('ticketInvalid');
  if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
  const session = await app.sessions.signIn(request, reply, user.id);
  await app.devices.remember(user.id, request);
  return accountInfo(session, { newUser: false });
}
