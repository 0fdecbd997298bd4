import { defaultStatement, extendStatement, permissionsOf, type Statement } from '../../protocol';

declare module '../../config' {
  interface Config {
    /**
     * Organisations: `statement` adds a deployment's resources and actions to the default access
     * statement (docs/organisations.md), e.g. `{ report: ['read', 'export'] }`.
     */
    organisations?: { statement?: Statement };
  }
}

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
