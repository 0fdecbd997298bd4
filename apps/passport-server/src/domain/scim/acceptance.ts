import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * The acceptance of a membership SCIM made for an account the organisation did not make
 * (docs/scim.md, "Which account"): it waits, frozen, until the person accepts it (in their console,
 * or by signing in through the organisation's connection, which proves them to it).
 */

type Tx = Kysely<Database>;

/** The person's membership in the organisation that waits for them, with its User; else undefined. */
export const awaitingMembership = (tx: Tx, subjectId: string, userId: string) =>
  tx
    .selectFrom('scim_users')
    .innerJoin('deputies', (join) =>
      join
        .onRef('deputies.user_id', '=', 'scim_users.user_id')
        .onRef('deputies.subject_id', '=', 'scim_users.subject_id'),
    )
    .select(['scim_users.id as scimId', 'scim_users.active', 'deputies.id as memberId'])
    .where('scim_users.subject_id', '=', subjectId)
    .where('scim_users.user_id', '=', userId)
    .where('scim_users.awaiting_acceptance', '=', 1)
    .executeTakeFirst();

/** Whether this member's membership waits for the person (then nobody but they may thaw it). */
export async function isAwaiting(tx: Tx, deputyId: string): Promise<boolean> {
  return (await awaitingAmong(tx, [deputyId])).has(deputyId);
}

/** Which of these members' memberships wait for their person (the lists mark them). */
export async function awaitingAmong(tx: Tx, deputyIds: readonly string[]): Promise<Set<string>> {
  if (deputyIds.length === 0) return new Set();
  const rows = await tx
    .selectFrom('deputies')
    .innerJoin('scim_users', (join) =>
      join
        .onRef('scim_users.user_id', '=', 'deputies.user_id')
        .onRef('scim_users.subject_id', '=', 'deputies.subject_id'),
    )
    .select('deputies.id')
    .where('deputies.id', 'in', deputyIds)
    .where('scim_users.awaiting_acceptance', '=', 1)
    .execute();
  return new Set(rows.map((row) => row.id));
}

type Awaiting = NonNullable<Awaited<ReturnType<typeof awaitingMembership>>>;

/**
 * Accepted: the wait ends (a new User version) and the membership thaws when the identity provider
 * has it active. False when another request accepted it first. `active` is read from the update, not
 * from the earlier read: a deactivation committed in between (PostgreSQL's read committed lets the
 * update see it) must not be thawed over.
 */
export async function acceptMembership(tx: Tx, awaiting: Awaiting, now: number): Promise<boolean> {
  const done = await tx
    .updateTable('scim_users')
    .set((eb) => ({ awaiting_acceptance: 0, version: eb('version', '+', 1), updated_at: now }))
    .where('id', '=', awaiting.scimId)
    .where('awaiting_acceptance', '=', 1)
    .returning('active')
    .executeTakeFirst();
  if (!done) return false;
  if (Number(done.active) === 1)
    await tx
      .updateTable('deputies')
      .set({ is_frozen: 0, updated_at: now })
      .where('id', '=', awaiting.memberId)
      .execute();
  return true;
}
