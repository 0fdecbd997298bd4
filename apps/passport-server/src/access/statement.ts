import { PassportError } from '../errors';
import {
  type DefaultPermission,
  defaultStatement,
  extendStatement,
  permissionsOf,
  type Statement,
} from '../protocol';

/**
 * Who may do what in an organisation, in one place: the access statement (resources and their actions,
 * declared once, Better Auth's style), what a member holds, and the grant rules. The default statement
 * is the protocol's (the SDKs read the same one); a deployment adds its own resources in configuration.
 */

declare module '../config' {
  interface Config {
    /**
     * Organisations: `statement` adds a deployment's resources and actions to the default access
     * statement (docs/organisations.md), e.g. `{ report: ['read', 'export'] }`.
     */
    organisations?: { statement?: Statement };
  }
}

/** A permission Portico's own operations name: `resource:action` of the default statement. */
export type Permission = DefaultPermission;

/** The access statement in force: the default merged with the configured one, and its permissions. */
export interface AccessStatement {
  readonly statement: Statement;
  /** Every permission, `resource:action`, in statement order. */
  readonly all: readonly string[];
  readonly known: ReadonlySet<string>;
}

export function accessStatement(extra: Statement | undefined): AccessStatement {
  const statement = extra ? extendStatement(defaultStatement, extra) : defaultStatement;
  const all = permissionsOf(statement);
  return { statement, all, known: new Set(all) };
}

/** A role as the rules see it: its entries as stored, and whether it is banned. */
export interface RoleGrant {
  readonly permissions: readonly string[];
  readonly banned: boolean;
}

/**
 * What a member holds: the manager holds every permission; anyone else holds the known entries of its
 * roles that are not banned (an entry the statement no longer knows grants nothing).
 */
export function heldPermissions(
  access: AccessStatement,
  member: { isManager: boolean; roles: readonly RoleGrant[] },
): Set<string> {
  if (member.isManager) return new Set(access.all);
  const held = new Set<string>();
  for (const role of member.roles)
    if (!role.banned) for (const p of role.permissions) if (access.known.has(p)) held.add(p);
  return held;
}

/** "Why does this member hold `permission`?": the roles of its that grant it, banned or not. */
export function rolesGranting<R extends RoleGrant>(
  permission: string,
  roles: readonly R[],
): { granting: R[]; banned: R[] } {
  const entries = roles.filter((role) => role.permissions.includes(permission));
  return { granting: entries.filter((r) => !r.banned), banned: entries.filter((r) => r.banned) };
}

/** PERMISSION_DENIED unless `held` has `permission`: what an operation's declared permission asks. */
export function assertHolds(held: ReadonlySet<string>, permission: string): void {
  if (!held.has(permission)) throw new PassportError('permissionDenied', { permission });
}

/**
 * The grant rule for permissions being handed out (a role created, a role's new entries, a role given
 * to a member): each must be known (UNKNOWN_PERMISSION) and held by the caller (GRANT_EXCEEDS_OWN).
 */
export function assertGrantable(
  access: AccessStatement,
  held: ReadonlySet<string>,
  permissions: readonly string[],
): void {
  for (const permission of permissions) {
    if (!access.known.has(permission)) throw new PassportError('unknownPermission', { permission });
    if (!held.has(permission)) throw new PassportError('grantExceedsOwn', { permission });
  }
}

/**
 * The reach rule for an existing role: nobody edits, renames, bans, un-bans, gives or takes a role
 * that grants what they do not hold themselves (GRANT_EXCEEDS_OWN) — else a member with `role:ban`
 * lifts the ban of a stronger role it holds, or one with `role:update` strips a stronger role. Entries
 * the statement no longer knows grant nothing and do not count. The manager holds every permission,
 * so every role is within its reach.
 */
export function assertWithinReach(
  access: AccessStatement,
  held: ReadonlySet<string>,
  rolePermissions: readonly string[],
): void {
  const permission = rolePermissions.find((p) => access.known.has(p) && !held.has(p));
  if (permission !== undefined) throw new PassportError('grantExceedsOwn', { permission });
}
