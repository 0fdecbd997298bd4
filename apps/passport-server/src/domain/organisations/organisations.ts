import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type AccessStatement, accessStatement, assertGrantable, assertHolds } from '../../access/statement';
import type { Database, DeputyRow, RoleRow, User } from '../../db/schema';
import { MAX_PAGE_SIZE } from '../../protocol';
import { type Actor, actorIn, deputyIn, permissionsOfDeputy, roleIn } from './actors';
import { realNameSealer } from './real-name';
import type { FactorClock } from './second-factor';

export { type Actor, storedPermissions } from './actors';

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

export interface Organisations {
  readonly access: AccessStatement;
  readonly realName: ReturnType<typeof realNameSealer>;
  newId(): string;
  /**
   * The session account's identity in a subject, its frozen states checked, or SUBJECT_NOT_FOUND.
   * `frozenSubjectOk` lets the manager thaw a frozen subject.
   */
  actorIn(
    user: User,
    subjectId: string,
    options?: { frozenSubjectOk?: boolean; factor?: FactorClock | undefined },
  ): Promise<Actor>;
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

/** The organisation domain over the app's database handle, for the flows that are not operations yet. */
export function createOrganisations(app: FastifyInstance): Organisations {
  const { db } = app;
  const access = accessStatement(app.config.organisations?.statement);
  return {
    access,
    realName: realNameSealer(app.secret),
    newId: () => randomUUID(),
    permissionsOf: (deputy, within = db) => permissionsOfDeputy(within, access, deputy),
    actorIn: (user, subjectId, options) => actorIn(db, access, user, subjectId, options),
    require: (actor, permission) => assertHolds(actor.permissions, permission),
    deputyIn: (subjectId, deputyId) => deputyIn(db, subjectId, deputyId),
    roleIn: (subjectId, roleKey) => roleIn(db, subjectId, roleKey),
    assertGrantable: (actor, permissions) => assertGrantable(access, actor.permissions, permissions),
  };
}
