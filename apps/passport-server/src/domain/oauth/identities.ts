import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { User } from '../../db/schema';
import { PassportError } from '../../errors';
import type { ProviderIdentity, ProviderName } from './providers';

/** The linked_identities table (migration 0008): which provider identity belongs to which account. */

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

/** The account an identity is linked to, or undefined. */
export async function linkedUser(app: FastifyInstance, provider: ProviderName, subject: string) {
  return app.db
    .selectFrom('linked_identities')
    .innerJoin('users', 'users.id', 'linked_identities.user_id')
    .selectAll('users')
    .where('linked_identities.provider', '=', provider)
    .where('linked_identities.subject', '=', subject)
    .executeTakeFirst();
}

export const identitiesOf = (app: FastifyInstance, userId: string) =>
  app.db
    .selectFrom('linked_identities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

/**
 * Links an identity to an account. OAUTH_LINKED_ELSEWHERE when another account holds it (also when a
 * concurrent link won), OAUTH_ALREADY_LINKED when the account links another identity of the provider;
 * linking the same identity again is a no-op.
 */
export async function link(app: FastifyInstance, userId: string, identity: ProviderIdentity): Promise<void> {
  const now = app.runtime.now();
  const holder = await app.db
    .selectFrom('linked_identities')
    .select(['user_id', 'subject'])
    .where('provider', '=', identity.provider)
    .where((eb) => eb.or([eb('subject', '=', identity.subject), eb('user_id', '=', userId)]))
    .execute();
  if (holder.some((row) => row.user_id === userId && row.subject === identity.subject)) return;
  if (holder.some((row) => row.subject === identity.subject)) throw new PassportError('oauthLinkedElsewhere');
  if (holder.some((row) => row.user_id === userId)) throw new PassportError('oauthAlreadyLinked');
  try {
    await app.db
      .insertInto('linked_identities')
      .values({
        id: randomUUID(),
        user_id: userId,
        provider: identity.provider,
        subject: identity.subject,
        email: identity.email,
        email_verified: identity.emailVerified ? 1 : 0,
        name: identity.name,
        avatar_url: identity.avatarUrl,
        created_at: now,
        last_used_at: now,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new PassportError('oauthLinkedElsewhere');
    throw error;
  }
}

/** Marks a linked identity used by a sign-in. */
export const touch = (app: FastifyInstance, provider: ProviderName, subject: string) =>
  app.db
    .updateTable('linked_identities')
    .set({ last_used_at: app.runtime.now() })
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .execute();

/**
 * Whether the account has a way in besides its identity of `provider`: a mobile or an e-mail (code
 * sign-in), a username with a password, another linked identity, or a passkey.
 */
export async function hasOtherWayIn(app: FastifyInstance, user: User, provider: ProviderName) {
  if (user.mobile || user.email || (user.username && user.password_hash)) return true;
  const others = await app.db
    .selectFrom('linked_identities')
    .select('id')
    .where('user_id', '=', user.id)
    .where('provider', '!=', provider)
    .executeTakeFirst();
  if (others !== undefined) return true;
  const passkey = await app.db
    .selectFrom('passkeys')
    .select('id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return passkey !== undefined;
}

/** Unlinks the account's identity of `provider`; false when there was none. */
export async function unlink(app: FastifyInstance, userId: string, provider: ProviderName) {
  const result = await app.db
    .deleteFrom('linked_identities')
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
