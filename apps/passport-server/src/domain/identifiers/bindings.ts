import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema';
import { PassportError } from '../../errors';
import type { DomainEvent } from '../../events/catalogue';
import { mask } from '../../lib/identifiers';
import type { Channel } from '../codes/codes';

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

/**
 * Whether an account keeps a way to sign in without its `channel` identifier: the other of mobile
 * and e-mail (a code), or a username with a password. Third-party links are not counted here (they
 * are issue 14 part 1's); docs/identifiers.md.
 */
export function keepsAWayIn(user: User, without: Channel): boolean {
  const other = without === 'mobile' ? user.email : user.mobile;
  return Boolean(other) || Boolean(user.username && user.password_hash);
}

export interface Rebind {
  user: User;
  channel: Channel;
  /** What the account has now: null for a bind, the old value for a change. */
  from: string | null;
  to: string;
  /** Another account holding `to` that gives it up (change_bind), or null. */
  movedFrom: User | null;
}

/** The person's own events of a rebind: bound or changed, and unbound on the account that gave it up. */
export function rebindEvents({ user, channel, from, to, movedFrom }: Rebind): DomainEvent[] {
  const own = (userId: string) => ({
    stream: `user:${userId}`,
    actor: { kind: 'person' as const, userId: user.id },
    targetUserId: userId,
  });
  return [
    ...(movedFrom
      ? [{ type: 'account.identifier_unbound' as const, ...own(movedFrom.id), data: { channel } }]
      : []),
    {
      type: from === null ? 'account.identifier_bound' : 'account.identifier_changed',
      ...own(user.id),
      data: { channel, identifier: mask(to) },
    },
  ];
}

/**
 * Puts `to` on the account through the operation's transaction `trx`: takes it off `movedFrom` first
 * (only while that one still holds it), then sets it on the account only while the account still has
 * `from` (of two concurrent changes one wins; the other is VERIFICATION_INVALID, or IDENTIFIER_BOUND for
 * a bind). A unique violation (someone else bound `to` meanwhile) is IDENTIFIER_TAKEN. Answers the
 * events of the change, for the operation to emit.
 */
export async function rebind(trx: Kysely<Database>, change: Rebind, now: number): Promise<DomainEvent[]> {
  const { channel, from, to, user, movedFrom } = change;
  try {
    if (movedFrom) {
      const released = await trx
        .updateTable('users')
        .set({ [channel]: null, updated_at: now })
        .where('id', '=', movedFrom.id)
        .where(channel, '=', to)
        .executeTakeFirst();
      if (Number(released.numUpdatedRows) !== 1) throw new PassportError('identifierTaken');
    }
    const bound = await trx
      .updateTable('users')
      .set({ [channel]: to, updated_at: now })
      .where('id', '=', user.id)
      .where(channel, from === null ? 'is' : '=', from)
      .executeTakeFirst();
    if (Number(bound.numUpdatedRows) !== 1)
      throw new PassportError(from === null ? 'identifierBound' : 'verificationInvalid', { channel });
  } catch (error) {
    if (isUniqueViolation(error)) throw new PassportError('identifierTaken');
    throw error;
  }
  return rebindEvents(change);
}

/**
 * Sets a username (and, when the account has none, a first password hash) while the account has no
 * username: USERNAME_TAKEN when another account has it (in any case: usernames are stored lower-cased),
 * USERNAME_ALREADY_SET when a concurrent set won.
 */
export async function setUsername(
  db: Kysely<Database>,
  user: User,
  username: string,
  newPasswordHash: string | null,
  now: number,
): Promise<void> {
  try {
    let update = db
      .updateTable('users')
      .set({ username, updated_at: now, ...(newPasswordHash ? { password_hash: newPasswordHash } : {}) })
      .where('id', '=', user.id)
      .where('username', 'is', null);
    if (newPasswordHash) update = update.where('password_hash', 'is', null);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new PassportError('usernameAlreadySet');
  } catch (error) {
    if (isUniqueViolation(error)) throw new PassportError('usernameTaken');
    throw error;
  }
}
