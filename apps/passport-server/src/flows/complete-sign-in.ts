import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invoke, type Principal } from '../adapters/invoke';
import { requestOf } from '../adapters/request';
import type { User } from '../db/schema';
import { accountInfo } from '../domain/accounts/account-info';
import { factorsOf } from '../domain/factors/factors';
import { SECOND_VERIFY_TTL_MS, savePendingSignIn } from '../domain/second-verify/pending';
import type { OpenedSignIn, SignInProof } from '../domain/sessions/browser';
import type { Session } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { mask } from '../lib/identifiers';
import { chosenLanguage, rememberLanguage } from '../lib/language';
import type { Operation } from '../operations/define';
import { signIn } from '../operations/sign-in/sign-in';

export type { SignInProof } from '../domain/sessions/browser';

/**
 * How every sign-in ends once its credential is proven, in three steps: `admitSignIn` before the
 * operation (it reads the device cookie and the store), the operation's transaction
 * (src/operations/sign-in: the session, the device, `account.signed_in`, one commit), then
 * `finishSignIn` after it (the cookies). `completeSignIn` runs the three for a flow that proved the
 * credential itself; the sign-in routes run them as operation routes (src/routes/web/login.ts, …).
 */

export interface SignInOptions {
  newUser: boolean;
  proof: SignInProof;
  /**
   * The password was right but came through the locked lane (flows/password-sign-in): the second
   * verification by the account's own channel is asked whatever the device; an account without one
   * (or a server without second verification) stays TEMPORARILY_LOCKED there.
   */
  lockedLane?: boolean;
  /** A sign-in another session vouched for (a QR confirmation): that session's verification time. */
  verifiedAt?: number | null;
  /**
   * Organisation mode: the organisation the sign-in lands in (the person's identity there, refused
   * when they have none); kept with a pending second verification.
   */
  subject?: string | undefined;
}

/**
 * Admits a proven sign-in: a frozen account gets ACCOUNT_FROZEN; a new account, a sign-in by an SMS
 * code to the account's own mobile (it proves the second factor itself), a QR confirmation, the
 * request's own session of the same account, an account without a mobile, or a browser presenting the
 * account's device token signs in; anything else answers SECOND_VERIFY (2046) with a fresh single-use
 * `sms_code_key` and the masked mobile (spec §4, §8; flows/second-verify finishes it). The device is
 * read here only when second verification depends on it; otherwise the rotation's own write, in the
 * operation, tells whether the device was new (the event's `newDevice`).
 */
export async function admitSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  user: User,
  options: SignInOptions,
): Promise<Principal> {
  if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
  const { lockedLane, ...how } = options;
  const proven =
    (!lockedLane && !app.config.secondVerify) ||
    options.newUser ||
    options.proof === 'mobileCode' ||
    // A second verification answered with another factor (flows/second-verify) is that factor itself.
    options.proof === 'totp' ||
    options.proof === 'recoveryCode' ||
    options.proof === 'factor' ||
    options.proof === 'emailFactor' ||
    // A QR sign-in was confirmed on a signed-in phone with the number this browser showed: the second
    // factor itself (flows/qr-login).
    options.proof === 'qr' ||
    // A passkey with user verification is two factors in one (a device and its lock), and phishing
    // resistant: it is the stronger second verification itself (docs/factors.md).
    options.proof === 'passkey' ||
    // The organisation's identity provider authenticated the person under the organisation's own
    // rules (its factors included); only an address in the organisation's verified domains gets here.
    options.proof === 'enterpriseSso' ||
    (options.proof === 'session' && request.session?.userId === user.id);
  // The account's factors beyond its mobile (src/domain/factors): an account without a mobile is
  // verified by them, and an account with one is offered them beside the SMS code.
  const factors = proven ? [] : await factorsOf(app.db, user.id);
  if (lockedLane && (!app.config.secondVerify || (!user.mobile && factors.length === 0)))
    throw new PassportError('temporarilyLocked');
  const directWithoutDevice = proven || (!user.mobile && factors.length === 0);
  const remembered =
    directWithoutDevice || lockedLane ? undefined : await app.devices.isRemembered(user.id, request);
  if (!directWithoutDevice && !remembered) {
    // The account's verified e-mail answers too, unless an e-mail code is what signed in (the same
    // factor twice proves nothing more), or the password was reset or changed lately: a code to the
    // e-mail can do that, and the e-mail would then be both the way in and its second verification.
    const email =
      user.email && options.proof !== 'emailCode' && !(await passwordChangedLately(app, user.id))
        ? user.email
        : '';
    const key = await savePendingSignIn(app, request, user.id, user.mobile ?? '', email, options.subject);
    const methods = [...(user.mobile ? ['sms'] : []), ...(email ? ['email'] : []), ...factors];
    throw new PassportError('secondVerify', {
      sms_code_key: key,
      mobile: user.mobile ? mask(user.mobile) : '',
      expires_in: SECOND_VERIFY_TTL_MS / 1000,
      // Only beside another way: an account whose one second factor is its mobile gets today's data.
      ...(methods.length > 1 || (methods.length === 1 && methods[0] !== 'sms')
        ? { methods, ...(email && { email: mask(email) }) }
        : {}),
    });
  }
  return { kind: 'person', user, signIn: { ...how, remembered } };
}

/** How long after a password reset or change the e-mail is not offered as a second verification. */
export const EMAIL_FACTOR_PAUSE_MS = 7 * 24 * 3600 * 1000;

async function passwordChangedLately(app: FastifyInstance, userId: string): Promise<boolean> {
  const row = await app.db
    .selectFrom('events')
    .select('position')
    .where('stream', '=', `user:${userId}`)
    .where('type', 'in', ['account.password_reset', 'account.password_changed'])
    .where('occurred_at', '>', app.runtime.now() - EMAIL_FACTOR_PAUSE_MS)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Hands a committed sign-in to the browser: the device and session cookies, and the person's saved
 * language when this browser has made no choice of its own (its choice stays first); the new session.
 */
export function finishSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  signedIn: OpenedSignIn,
): Session {
  app.devices.setCookie(reply, signedIn.device);
  if (signedIn.language && !chosenLanguage(request)) rememberLanguage(app, reply, signedIn.language);
  return app.sessions.start(request, reply, signedIn.session);
}

/** A sign-in operation's answer: its cookies handed to the browser, the account. */
export async function answerSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  { output }: { output: OpenedSignIn & { newUser: boolean } },
) {
  return accountInfo(finishSignIn(app, request, reply, output), { newUser: output.newUser });
}

/**
 * Runs a sign-in operation for the person a flow proved and admitted, and answers the account: for a
 * route that is no operation route (the app family's /Login) and the flows that sign in at their end.
 */
export async function signInThrough<O extends Operation>(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  operation: O,
  input: unknown,
  principal: Principal,
) {
  const output = await invoke(app, operation, input, principal, requestOf(app, request));
  return answerSignIn(app, request, reply, { output: output as OpenedSignIn & { newUser: boolean } });
}

/**
 * Ends a sign-in whose credential the flow proved: admitted, written by the `account.sign_in`
 * operation (to `identity`, a deputy id, when given; else to the identity in `subject` when the
 * sign-in names an organisation; default the personal one), handed to the browser.
 */
export async function completeSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  options: SignInOptions & { identity?: string },
) {
  const { identity, ...how } = options;
  const principal = await admitSignIn(app, request, user, how);
  return signInThrough(app, request, reply, signIn, identity === undefined ? {} : { identity }, principal);
}
