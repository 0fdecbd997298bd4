import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { mask } from '../../lib/identifiers';
import { factorsOf } from '../factors/factors';
import type { Session } from './sessions';

/**
 * Step-up: what adds or removes a way into an account (a mobile, an e-mail, a username with a password,
 * a first password, a third-party link) needs the person to have proven it is them recently in this
 * session, not only to hold its cookie: a stolen session must not become a way in of its own. The
 * session's sign-in counts, and so does each later auth/verify (a code to a mobile or e-mail the
 * account already has) or account/verify (its password). Older: STEP_UP_REQUIRED (2047), whose data
 * tells the client which ways it may prove it by.
 *
 * The one check: flow routes call `requireStepUp`, operations declare `stepUp` and the adapter
 * (src/adapters/invoke.ts) calls `assertVerifiedWithin`.
 */

/**
 * Throws STEP_UP_REQUIRED unless `verifiedAt` (ms; null: never) lies within `maxAgeMs` of now. The data
 * names the ways the person can prove it is them again: the account's mobile and e-mail, masked (empty
 * when it has none), and whether it has a password; an account with another factor (an authenticator
 * app, recovery codes, src/domain/factors) gets `methods` too, every way it has ('sms', 'email',
 * 'password', then the factors), read through `db` (an operation's transaction).
 */
export async function assertVerifiedWithin(
  app: FastifyInstance,
  db: Kysely<Database>,
  user: User,
  verifiedAt: number | null | undefined,
  maxAgeMs: number,
): Promise<void> {
  // A time a little ahead of this server's clock (another instance's) counts as just now.
  if (typeof verifiedAt === 'number' && app.runtime.now() - verifiedAt <= maxAgeMs) return;
  const factors = await factorsOf(db, user.id);
  throw new PassportError('stepUpRequired', {
    mobile: user.mobile ? mask(user.mobile) : '',
    email: user.email ? mask(user.email) : '',
    has_password: user.password_hash !== null,
    max_age: Math.round(maxAgeMs / 1000),
    ...(factors.length > 0 && {
      methods: [
        ...(user.mobile ? ['sms'] : []),
        ...(user.email ? ['email'] : []),
        ...(user.password_hash !== null ? ['password'] : []),
        ...factors,
      ],
    }),
  });
}

/** A flow that adds or removes a way in: the session must have verified within `limits.stepUpMaxAgeMs`. */
export function requireStepUp(
  app: FastifyInstance,
  session: Session,
  user: User = session.user,
): Promise<void> {
  return assertVerifiedWithin(app, app.db, user, session.verifiedAt, app.runtime.limits.stepUpMaxAgeMs);
}
