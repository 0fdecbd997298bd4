import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, DeputyRow, RoleRow, SubjectRow, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { MAX_PAGE_SIZE } from '../../protocol';
import { realNameSealer } from './real-name';
import { type AccessStatement, accessStatement } from './statement';

/**
 * The organisation domain (issue 12): subjects, member identities (deputies), roles and member-role
 * links, and who may do what. Rules that hold everywhere:
 * - The actor is the session's account: `actorIn` finds its identity in the subject named; ids in a
 *   body or query only name what is acted on.
 * - Deny by default: a permission is held only through the manager flag (every permission) or a role
 *   that is not banned; unknown permissions are refused.
 * - Isolation: an account without an identity in a subject gets SUBJECT_NOT_FOUND for it, from the
 *   same one query whether the subject exists or not, before anything else is read or written.
 * - Exactly one manager per subject: the partial unique index `deputies_one_manager`.
 */

/** A member acting in a subject, as the session proves it. */
export interface Actor {
  user: User;
  subject: SubjectRow;
  deputy: DeputyRow;
  isManager: boolean;
  /** What the identity holds now (banned roles grant nothing). */
  permissions: ReadonlySet<string>;
}

export interface PageArgs {
  page: number;
  page_size: number;
}

export interface PageOf<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
  has_more: boolean;
}

export const pageOf = <T>(items: T[], total: number, { page, page_size }: PageArgs): PageOf<T> => ({
  items,
  page,
  page_size,
  total,
  has_more: page * page_size < total,
});

/** Limit and offset of a page; the size is capped. */
export const window = ({ page, page_size }: PageArgs) => {
  const size = Math.min(Math.max(1, page_size), MAX_PAGE_SIZE);
  return { limit: size, offset: (Math.max(1, page) - 1) * size };
};

export const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
};

/** A role's permissions as stored (JSON text); anything unreadable grants nothing. */
export function storedPermissions(text: string): string[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export interface Organisations {
  readonly access: AccessStatement;
  readonly realName: ReturnType<typeof realNameSealer>;
  newId(): string;
  /**
   * The session account's identity in a subject, its frozen states checked, or SUBJECT_NOT_FOUND.
   * `frozenSubjectOk` lets the manager thaw a frozen subject.
   */
  actorIn(user: User, subjectId: string, options?: { frozenSubjectOk?: boolean }): Promise<Actor>;
  /**
   * What a deputy holds now: every permission for the manager, else its unbanned roles' known ones.
   * Inside a transaction, pass it (`db`): on SQLite the transaction holds the one connection.
   */
  permissionsOf(deputy: Pick<DeputyRow, 'id' | 'is_manager'>, db?: Kysely<Database>): Promise<Set<string>>;
  /** PERMISSION_DENIED unless the actor holds `permission`. */
  require(actor: Actor, permission: string): void;
  /** A deputy of the actor's subject, or MEMBER_NOT_FOUND (also for an id of another subject). */
  deputyIn(subjectId: string, deputyId: string): Promise<DeputyRow>;
  /** A role of the subject, or ROLE_NOT_FOUND (also for a key of another subject). */
  roleIn(subjectId: string, roleKey: string): Promise<RoleRow>;
  /**
   * Refuses a grant beyond the granter: every permission must be known (UNKNOWN_PERMISSION) and held
   * by the actor (GRANT_EXCEEDS_OWN).
   */
  assertGrantable(actor: Actor, permissions: readonly string[]): void;
}

export function createOrganisations(app: FastifyInstance): Organisations {
  const { db } = app;
  const access = accessStatement(app.config.organisations?.statement);

  const permissionsOf: Organisations['permissionsOf'] = async (deputy, within = db) => {
    if (Number(deputy.is_manager) === 1) return new Set(access.all);
    const rows = await within
      .selectFrom('deputy_roles')
      .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
      .select('roles.permissions')
      .where('deputy_roles.deputy_id', '=', deputy.id)
      .where('roles.is_banned', '=', 0)
      .execute();
    const held = new Set<string>();
    for (const row of rows)
      for (const p of storedPermissions(row.permissions)) if (access.known.has(p)) held.add(p);
    return held;
  };

  return {
    access,
    realName: realNameSealer(app.secret),
    newId: () => randomUUID(),
    permissionsOf,
    async actorIn(user, subjectId, options = {}) {
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
        created_by: s_created_by,
        created_at: Number(s_created_at),
        updated_at: Number(s_updated_at),
      };
      const isManager = Number(deputy.is_manager) === 1;
      if (Number(subject.is_frozen) === 1 && !(options.frozenSubjectOk && isManager))
        throw new PassportError('subjectFrozen');
      if (Number(deputy.is_frozen) === 1) throw new PassportError('memberFrozen');
      return { user, subject, deputy, isManager, permissions: await permissionsOf(deputy) };
    },
    require(actor, permission) {
      if (!actor.permissions.has(permission)) throw new PassportError('permissionDenied', { permission });
    },
    async deputyIn(subjectId, deputyId) {
      const deputy = await db
        .selectFrom('deputies')
        .selectAll()
        .where('id', '=', deputyId)
        .where('subject_id', '=', subjectId)
        .executeTakeFirst();
      if (!deputy) throw new PassportError('memberNotFound');
      return deputy;
    },
    async roleIn(subjectId, roleKey) {
      const role = await db
        .selectFrom('roles')
        .selectAll()
        .where('subject_id', '=', subjectId)
        .where('role_key', '=', roleKey)
        .executeTakeFirst();
      if (!role) throw new PassportError('roleNotFound');
      return role;
    },
    assertGrantable(actor, permissions) {
      for (const p of permissions) {
        if (!access.known.has(p)) throw new PassportError('unknownPermission', { permission: p });
        if (!actor.permissions.has(p)) throw new PassportError('grantExceedsOwn', { permission: p });
      }
    },
  };
}
