import type { Kysely } from 'kysely';
import { type AccessStatement, heldPermissions } from '../../access/statement';
import type { Database, DeputyRow, RoleRow, SubjectRow, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { assertSecondFactor, type FactorClock } from './second-factor';

/**
 * Who acts in an organisation and what they hold, read through the `db` given: an operation's
 * transaction (so the check and the change see the same rows), or the app's handle for the flows that
 * are not operations yet.
 */

/** A member acting in a subject, as the session proves it. */
export interface Actor {
  user: User;
  subject: SubjectRow;
  deputy: DeputyRow;
  isManager: boolean;
  /** What the identity holds now (banned roles grant nothing). */
  permissions: ReadonlySet<string>;
  /** The caller's session's proof of a second factor, as the organisation's rule judged it. */
  factorClock: FactorClock | undefined;
}

/** A role as stored, its entries read. */
export interface HeldRole {
  role_key: string;
  role_name: string;
  permissions: string[];
  banned: boolean;
}

/** A role's permissions as stored (JSON text); anything unreadable grants nothing. */
export function storedPermissions(text: string): string[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Every role a member holds, banned or not, by key. */
export async function rolesOfDeputy(db: Kysely<Database>, deputyId: string): Promise<HeldRole[]> {
  const rows = await db
    .selectFrom('deputy_roles')
    .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .select(['roles.role_key', 'roles.role_name', 'roles.permissions', 'roles.is_banned'])
    .where('deputy_roles.deputy_id', '=', deputyId)
    .orderBy('roles.role_key')
    .execute();
  return rows.map((row) => ({
    role_key: row.role_key,
    role_name: row.role_name,
    permissions: storedPermissions(row.permissions),
    banned: Number(row.is_banned) === 1,
  }));
}

/** What a deputy holds now: every permission for the manager, else its unbanned roles' known ones. */
export async function permissionsOfDeputy(
  db: Kysely<Database>,
  access: AccessStatement,
  deputy: Pick<DeputyRow, 'id' | 'is_manager'>,
): Promise<Set<string>> {
  const isManager = Number(deputy.is_manager) === 1;
  return heldPermissions(access, { isManager, roles: isManager ? [] : await rolesOfDeputy(db, deputy.id) });
}

/**
 * The account's identity in a subject, its frozen states and the organisation's second-factor rule
 * checked, or SUBJECT_NOT_FOUND — from one query whether the subject exists or not, so a non-member
 * learns nothing. `frozenSubjectOk` lets the manager thaw a frozen subject. `factor`: the session's
 * proof of a second factor (src/domain/organisations/second-factor.ts); without it, none.
 */
export async function actorIn(
  db: Kysely<Database>,
  access: AccessStatement,
  user: User,
  subjectId: string,
  options: { frozenSubjectOk?: boolean; factor?: FactorClock | undefined } = {},
): Promise<Actor> {
  const row = await db
    .selectFrom('deputies')
    .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
    .selectAll('deputies')
    .select([
      'subjects.name as s_name',
      'subjects.base_infos as s_base_infos',
      'subjects.detail_infos as s_detail_infos',
      'subjects.identity_card_sealed as s_identity_card_sealed',
      'subjects.real_name_sealed as s_real_name_sealed',
      'subjects.is_frozen as s_is_frozen',
      'subjects.require_second_factor as s_require_second_factor',
      'subjects.created_by as s_created_by',
      'subjects.created_at as s_created_at',
      'subjects.updated_at as s_updated_at',
    ])
    .where('deputies.user_id', '=', user.id)
    .where('deputies.subject_id', '=', subjectId)
    .executeTakeFirst();
  if (!row) throw new PassportError('subjectNotFound');
  const {
    s_name,
    s_base_infos,
    s_detail_infos,
    s_identity_card_sealed,
    s_real_name_sealed,
    s_is_frozen,
    s_require_second_factor,
    s_created_by,
    s_created_at,
    s_updated_at,
    ...deputy
  } = row;
  const subject: SubjectRow = {
    id: deputy.subject_id,
    name: s_name,
    base_infos: s_base_infos,
    detail_infos: s_detail_infos,
    identity_card_sealed: s_identity_card_sealed,
    real_name_sealed: s_real_name_sealed,
    is_frozen: s_is_frozen,
    require_second_factor: s_require_second_factor,
    created_by: s_created_by,
    created_at: Number(s_created_at),
    updated_at: Number(s_updated_at),
  };
  const isManager = Number(deputy.is_manager) === 1;
  if (Number(subject.is_frozen) === 1 && !(options.frozenSubjectOk && isManager))
    throw new PassportError('subjectFrozen');
  if (Number(deputy.is_frozen) === 1) throw new PassportError('memberFrozen');
  await assertSecondFactor(db, subject, user.id, options.factor);
  return {
    user,
    subject,
    deputy,
    isManager,
    permissions: await permissionsOfDeputy(db, access, deputy),
    factorClock: options.factor,
  };
}

/** A deputy of the subject, or MEMBER_NOT_FOUND (also for an id of another subject). */
export async function deputyIn(
  db: Kysely<Database>,
  subjectId: string,
  deputyId: string,
): Promise<DeputyRow> {
  const deputy = await db
    .selectFrom('deputies')
    .selectAll()
    .where('id', '=', deputyId)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  if (!deputy) throw new PassportError('memberNotFound');
  return deputy;
}

/** A role of the subject, or ROLE_NOT_FOUND (also for a key of another subject). */
export async function roleIn(db: Kysely<Database>, subjectId: string, roleKey: string): Promise<RoleRow> {
  const role = await db
    .selectFrom('roles')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .where('role_key', '=', roleKey)
    .executeTakeFirst();
  if (!role) throw new PassportError('roleNotFound');
  return role;
}
