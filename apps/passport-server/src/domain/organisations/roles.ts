import type { Kysely } from 'kysely';
import type { Database, RoleRow } from '../../db/schema';
import { PassportError } from '../../errors';
import { isUniqueViolation, type PageArgs, pageOf, window } from './organisations';

/** Roles and member-role links of a subject, through the `tx` of the operation that changes them. */

type Tx = Kysely<Database>;

/** Inserts a role, or ROLE_EXISTS for a key the subject already has. */
export async function insertRole(tx: Tx, role: RoleRow): Promise<void> {
  try {
    await tx.insertInto('roles').values(role).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new PassportError('roleExists');
    throw error;
  }
}

export async function saveRole(
  tx: Tx,
  role: Pick<RoleRow, 'id' | 'role_name' | 'permissions' | 'description' | 'is_banned' | 'updated_at'>,
): Promise<void> {
  const { id, ...fields } = role;
  await tx.updateTable('roles').set(fields).where('id', '=', id).execute();
}

/** A subject's roles by key, paged. */
export async function rolePage(tx: Tx, subjectId: string, page: PageArgs) {
  const base = tx.selectFrom('roles').where('subject_id', '=', subjectId);
  const { limit, offset } = window(page);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('role_key').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n), limit };
}

/** The member identities named, all of the subject, or MEMBER_NOT_FOUND (also for an id of another). */
export async function deputiesIn(tx: Tx, subjectId: string, ids: readonly string[]) {
  if (ids.length === 0) throw new PassportError('invalidParam', { field: 'sec_user_identity_ids' });
  const rows = await tx
    .selectFrom('deputies')
    .select(['id', 'user_id'])
    .where('subject_id', '=', subjectId)
    .where('id', 'in', ids)
    .execute();
  if (rows.length !== ids.length) throw new PassportError('memberNotFound');
  return rows;
}

/** Gives a role to members; returns the ids of those that did not hold it yet. */
export async function linkRole(
  tx: Tx,
  role: Pick<RoleRow, 'id' | 'subject_id'>,
  deputyIds: readonly string[],
  now: number,
): Promise<string[]> {
  const rows = await tx
    .insertInto('deputy_roles')
    .values(
      deputyIds.map((deputy_id) => ({
        deputy_id,
        role_id: role.id,
        subject_id: role.subject_id,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['deputy_id', 'role_id']).doNothing())
    .returning('deputy_id')
    .execute();
  return rows.map((row) => row.deputy_id);
}

/** Takes a role from members; returns the ids of those that held it. */
export async function unlinkRole(tx: Tx, roleId: string, deputyIds: readonly string[]): Promise<string[]> {
  const rows = await tx
    .deleteFrom('deputy_roles')
    .where('role_id', '=', roleId)
    .where('deputy_id', 'in', deputyIds)
    .returning('deputy_id')
    .execute();
  return rows.map((row) => row.deputy_id);
}

/** Member-role links of a subject (optionally of one role), paged. */
export async function linkPage(tx: Tx, subjectId: string, roleId: string | undefined, page: PageArgs) {
  let base = tx
    .selectFrom('deputy_roles')
    .innerJoin('deputies', 'deputies.id', 'deputy_roles.deputy_id')
    .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .where('deputy_roles.subject_id', '=', subjectId);
  if (roleId) base = base.where('deputy_roles.role_id', '=', roleId);
  const { limit, offset } = window(page);
  const [rows, count] = await Promise.all([
    base
      .select([
        'deputies.id as user_identity_id',
        'deputies.deputy_name',
        'roles.role_key',
        'roles.role_name',
      ])
      .orderBy('roles.role_key')
      .orderBy('deputies.created_at')
      .orderBy('deputies.id')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(rows, Number(count.n), { page: page.page, page_size: limit });
}
