/**
 * The access statement: every resource an organisation's roles can grant and the actions on it, in
 * the shape of Better Auth's `access/statement.ts`. A permission is written `resource:action`
 * (`role:update`). The server reads one statement, the default below merged with the deployment's own
 * (`extendStatement(defaultStatement, { report: ['read', 'export'] })`, given to the server as
 * `organisations.statement` in its config); the resource list call serves it.
 */

/** Resources and their actions. */
export type Statement = { readonly [resource: string]: readonly string[] };

/** What Portico's own routes check. */
export const defaultStatement = {
  subject: ['read', 'update'],
  member: ['read', 'create', 'update', 'freeze', 'delete'],
  role: ['read', 'create', 'update', 'ban', 'assign'],
  invitation: ['read', 'create', 'update', 'cancel'],
  /** The organisation's audit log: who did what to whom. */
  audit: ['read'],
  /** Enterprise sign-in: the organisation's verified domains and single sign-on connections. */
  sso: ['manage'],
} as const satisfies Statement;

/** `'role:update'`, typed from a statement. */
export type PermissionOf<S extends Statement> = {
  [R in keyof S & string]: `${R}:${S[R][number]}`;
}[keyof S & string];

export type DefaultPermission = PermissionOf<typeof defaultStatement>;

/** A resource or action name: lower-case letters, digits, '_' and '-', 1 to 32 characters. */
const NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * A statement with more resources or more actions on existing ones. A name that is not lower-case
 * `[a-z][a-z0-9_-]*` (at most 32) throws a TypeError, so a typo fails at start, not at a check.
 */
export function extendStatement<A extends Statement, B extends Statement>(base: A, extra: B): A & B {
  const out: Record<string, string[]> = {};
  for (const part of [base, extra])
    for (const [resource, actions] of Object.entries(part)) {
      if (!NAME.test(resource))
        throw new TypeError(`extendStatement: resource '${resource}' is not a valid name`);
      for (const action of actions)
        if (!NAME.test(action))
          throw new TypeError(`extendStatement: action '${resource}:${action}' is not a valid name`);
      out[resource] = [...new Set([...(out[resource] ?? []), ...actions])];
    }
  return out as unknown as A & B;
}

/** Every permission of a statement, `resource:action`, in statement order. */
export const permissionsOf = (statement: Statement): string[] =>
  Object.entries(statement).flatMap(([resource, actions]) => actions.map((a) => `${resource}:${a}`));

/** Whether `permission` is one the statement knows. */
export function isPermission(statement: Statement, permission: string): boolean {
  const at = permission.indexOf(':');
  if (at <= 0) return false;
  const actions = statement[permission.slice(0, at)];
  return !!actions && actions.includes(permission.slice(at + 1));
}
