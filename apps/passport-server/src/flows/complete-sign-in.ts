import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { accountInfo } from '../domain/accounts/account-info';
import { factorsOf } from '../domain/factors/factors';
import { SECOND_VERIFY_TTL_MS, savePendingSignIn } from '../domain/second-verify/pending';
import { PassportError } from '../errors';
import { recordAccountEvent } from '../events/record';
import { mask } from '../lib/identifiers';

/**
 * How the credential of a sign-in was proven. `session`: the request's own session of the same account,
 * which passed its sign-in's second verification (accepting an invitation signs in again, to the new
 * identity).
 */
export type SignInProof =
  | 'password'
  | 'mobileCode'
  | 'emailCode'
  | 'thirdParty'
  | 'qr'
  | 'session'
  /** A second verification answered with a factor of src/domain/factors (flows/second-verify). */
  | 'totp'
  | 'recoveryCode'
  /** …with a factor registered later (its name is not a proof of its own yet). */
  | 'factor'
  | 'passkey';

/**
 * Ends every sign-in once its credential is proven: a frozen account gets ACCOUNT_FROZEN; a new
 * account, a sign-in by an SMS code to the account's own mobile (it proves the second factor itself),
 * an account without a mobile, or a browser presenting the account's device token signs in (and the
 * device is remembered, its token rotated); anything else answers SECOND_VERIFY (2046) with a fresh single-use `sms_code_key` and the
 * masked mobile (spec §4, §8; flows/second-verify finishes it).
 *
 * The sign-in is one transaction, one commit (one fsync on SQLite at synchronous=FULL): the old session
 * ends, the new one is stored, the device remembered and `account.signed_in` recorded, last (on
 * PostgreSQL the events' lock is held until the commit); the cookies are set once it has committed.
 * The device is read beforehand only when second verification depends on it; otherwise the rotation's
 * own write tells whether the device was new (the event's `newDevice`).
 */
export async function completeSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  options: {
    newUser: boolean;
    proof: SignInProof;
    /** The organisation identity (a deputy id) the session starts in; default the personal one. */
    identity?: string;
  },
) {
  if (Number(user.is_frozen) === 1) throw new PassportError('accountFrozen');
  const proven =
    !app.config.secondVerify ||
    options.newUser ||
    options.proof === 'mobileCode' ||
    // A second verification answered with another factor (flows/second-verify) is that factor itself.
    options.proof === 'totp' ||
    options.proof === 'recoveryCode' ||
    options.proof === 'factor' ||
    // A QR sign-in was confirmed on a signed-in phone with the number this browser showed: the second
    // factor itself (flows/qr-login).
    options.proof === 'qr' ||
    // A passkey with user verification is two factors in one (a device and its lock), and phishing
    // resistant: it is the stronger second verification itself (docs/factors.md).
    options.proof === 'passkey' ||
    (options.proof === 'session' && request.session?.userId === user.id);
  // The account's factors beyond its mobile (src/domain/factors): an account without a mobile is
  // verified by them, and an account with one is offered them beside the SMS code.
  const factors = proven ? [] : await factorsOf(app.db, user.id);
  const directWithoutDevice = proven || (!user.mobile && factors.length === 0);
  const remembered = directWithoutDevice ? undefined : await app.devices.isRemembered(user.id, request);
  if (!directWithoutDevice && !remembered) {
    const key = await savePendingSignIn(app, request, user.id, user.mobile ?? '');
    throw new PassportError('secondVerify', {
      sms_code_key: key,
      mobile: user.mobile ? mask(user.mobile) : '',
      expires_in: SECOND_VERIFY_TTL_MS / 1000,
      // Only beside another factor: an account whose one second factor is its mobile gets today's data.
      ...(factors.length > 0 && { methods: [...(user.mobile ? ['sms'] : []), ...factors] }),
    });
  }
  const { opened, device } = await app.db.transaction().execute(async (tx) => {
    // A sign-in by the session itself (accepting an invitation) proves nothing new: the step-up's
    // clock keeps the session's verification time.
    const opened = await app.sessions.open(tx, request, user.id, options.identity ?? null, {
      keepVerification: options.proof === 'session',
    });
    const device = await app.devices.store(tx, user.id, request);
    await recordAccountEvent(app, request, tx, {
      type: 'account.signed_in',
      userId: user.id,
      data: { method: options.proof, newDevice: !(remembered ?? device.known) },
    });
    return { opened, device };
  });
  app.devices.setCookie(reply, device);
  return accountInfo(app.sessions.start(request, reply, opened), { newUser: options.newUser });
}
