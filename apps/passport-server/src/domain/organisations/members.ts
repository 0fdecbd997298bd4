import type { Kysely } from 'kysely';
import type { Database, DeputyRow } from '../../db/schema';
import { PassportError } from '../../errors';
import { isAwaiting } from '../scim/acceptance';
import { type PageArgs, window } from './organisations';

/** Member identities (deputies), through the `tx` of the operation that reads or changes them. */

type Tx = Kysely<Database>;

/** The role keys of some deputies, by deputy id. */
export async function roleKeysOf(tx: Tx, deputyIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (deputyIds.length === 0) return out;
  const rows = await tx
    .selectFrom('deputy_roles')
    .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .select(['deputy_roles.deputy_id', 'roles.role_key'])
    .where('deputy_roles.deputy_id', 'in', deputyIds)
    .orderBy('roles.role_key')
    .execute();
  for (const row of rows) out.set(row.deputy_id, [...(out.get(row.deputy_id) ?? []), row.role_key]);
  return out;
}

/** A subject's members, paged; the manager first. */
export const deputyPage = (tx: Tx, subjectId: string, page: PageArgs) =>
  deputiesBy(tx, 'subject_id', subjectId, page);

/** A person's member identities in every subject, paged. */
export const identityPage = (tx: Tx, userId: string, page: PageArgs) =>
  deputiesBy(tx, 'user_id', userId, page);

/** One page of the deputies of a subject (the manager first) or of a person, oldest first. */
async function deputiesBy(tx: Tx, by: 'subject_id' | 'user_id', id: string, page: PageArgs) {
  const base = tx.selectFrom('deputies').where(by, '=', id);
  const { limit, offset } = window(page);
  let query = base.selectAll();
  if (by === 'subject_id') query = query.orderBy('is_manager', 'desc');
  const rows = await query.orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n), limit };
}

/** A person's identity in a subject, whatever its frozen states, or SUBJECT_NOT_FOUND. */
export async function ownDeputyIn(tx: Tx, userId: string, subjectId: string): Promise<DeputyRow> {
  const deputy = await tx
    .selectFrom('deputies')
    .selectAll()
    .where('user_id', '=', userId)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  if (!deputy) throw new PassportError('subjectNotFound');
  return deputy;
}

export async function renameDeputy(tx: Tx, deputyId: string, name: string, now: number): Promise<void> {
  await tx
    .updateTable('deputies')
    .set({ deputy_name: name, updated_at: now })
    .where('id', '=', deputyId)
    .execute();
}

/** Freezes or thaws a member identity that is not the manager (MANAGER_PROTECTED otherwise). */
export async function setDeputyFrozen(tx: Tx, deputyId: string, isFrozen: number, now: number) {
  // A membership SCIM made for someone else's account thaws only when that person accepts it.
  if (isFrozen === 0 && (await isAwaiting(tx, deputyId))) throw new PassportError('memberAwaitingAcceptance');
  const changed = await tx
    .updateTable('deputies')
    .set({ is_frozen: isFrozen, updated_at: now })
    .where('id', '=', deputyId)
    .where('is_manager', '=', 0)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw new PassportError('managerProtected');
}

/**
 * Removes a member identity that is not the manager (MANAGER_PROTECTED otherwise), and every session
 * acting as it: a removed or departed member keeps no session in the organisation, not even a personal
 * fallback of one that was acting as it. Its role links go with it (the foreign key).
 */
export async function removeDeputy(tx: Tx, deputyId: string): Promise<void> {
  // Sessions first: the foreign key would otherwise set their identity to null (personal).
  await tx.deleteFrom('sessions').where('deputy_id', '=', deputyId).execute();
  const gone = await tx
    .deleteFrom('deputies')
    .where('id', '=', deputyId)
    .where('is_manager', '=', 0)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) !== 1) throw new PassportError('managerProtected');
}
