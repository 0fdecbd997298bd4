import type { Kysely } from 'kysely';
import type { Database, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { PERSONAL_IDENTITY } from '../../protocol';
import { assertSecondFactor, type FactorClock } from './second-factor';

/**
 * The identities a person may sign in as (spec §6 "Login as a chosen subject and identity"): the
 * personal one and each membership, as the subject login list and the identity sign-ins read them.
 */

/** 1 or 0, as the wire's flags are. */
const flag = (value: unknown): 0 | 1 => (Number(value) === 1 ? 1 : 0);

const identities = (db: Kysely<Database>, userId: string) =>
  db
    .selectFrom('deputies')
    .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
    .selectAll('deputies')
    .select([
      'subjects.name as subject_name',
      'subjects.is_frozen as subject_is_frozen',
      'subjects.require_second_factor as subject_require_second_factor',
    ])
    // A membership SCIM made for an account the person had waits for their answer (docs/scim.md).
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('scim_users')
            .select('scim_users.id')
            .whereRef('scim_users.user_id', '=', 'deputies.user_id')
            .whereRef('scim_users.subject_id', '=', 'deputies.subject_id')
            .where('scim_users.awaiting_acceptance', '=', 1),
        )
        .as('awaiting_acceptance'),
    )
    .where('deputies.user_id', '=', userId);

/** An identity of the person with its subject's state, or undefined (not theirs, or none). */
export function ownIdentity(db: Kysely<Database>, userId: string, deputyId: string, subjectId?: string) {
  let query = identities(db, userId).where('deputies.id', '=', deputyId);
  if (subjectId !== undefined) query = query.where('deputies.subject_id', '=', subjectId);
  return query.executeTakeFirst();
}
export type OwnIdentity = NonNullable<Awaited<ReturnType<typeof ownIdentity>>>;

/** The person's identity in an organisation (at most one per person and subject), or undefined. */
export const identityIn = (db: Kysely<Database>, userId: string, subjectId: string) =>
  identities(db, userId).where('deputies.subject_id', '=', subjectId).executeTakeFirst();

/**
 * Refuses an identity its person may not act as now: in a frozen subject (SUBJECT_FROZEN), frozen
 * itself (MEMBER_FROZEN), or in an organisation that requires a second factor the sign-in or session
 * has not proved recently enough (`clock`; assertSecondFactor).
 */
export async function assertMayActAs(
  db: Kysely<Database>,
  row: OwnIdentity,
  clock: FactorClock | undefined,
): Promise<void> {
  if (Number(row.subject_is_frozen) === 1) throw new PassportError('subjectFrozen');
  if (Number(row.is_frozen) === 1) throw new PassportError('memberFrozen');
  await assertSecondFactor(
    db,
    { id: row.subject_id, require_second_factor: row.subject_require_second_factor },
    row.user_id,
    clock,
  );
}

/** Every identity of the person in an organisation, oldest first (at most 1000). */
export const ownIdentities = (db: Kysely<Database>, userId: string) =>
  identities(db, userId).orderBy('deputies.created_at').orderBy('deputies.id').limit(1000).execute();

/** An identity as the login list and a refused frozen sign-in show it. */
export const identityView = (row: OwnIdentity, active: boolean) => ({
  user_identity_id: row.id,
  sec_subject_uid: row.subject_id,
  subject_name: row.subject_name,
  deputy_name: row.deputy_name,
  is_manager: Number(row.is_manager) === 1,
  // Frozen when the identity or its subject is.
  is_frozen: flag(row.is_frozen) || flag(row.subject_is_frozen),
  subject_is_frozen: flag(row.subject_is_frozen),
  // PostgreSQL answers EXISTS as a boolean, SQLite as 0 or 1.
  awaiting_acceptance: Number(row.awaiting_acceptance) === 1,
  active,
});

/** The personal identity, first in the list; `active` when the session acts as no member. */
export const personalView = (user: User, active: boolean) => ({
  user_identity_id: PERSONAL_IDENTITY,
  sec_subject_uid: null,
  subject_name: null,
  deputy_name: user.screen_name,
  is_manager: false,
  is_frozen: flag(user.is_frozen),
  subject_is_frozen: 0 as const,
  awaiting_acceptance: false,
  active,
});
