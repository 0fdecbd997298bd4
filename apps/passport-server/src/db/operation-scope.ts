import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dialect } from 'kysely';

/**
 * While an operation's transaction is open, every query of the operation goes through that
 * transaction (`ctx.tx`). A query on the app's handle instead would, on SQLite, wait for the one
 * connection the transaction holds — forever, and every later query behind it — and on PostgreSQL it
 * would read outside the transaction and may wait on its locks. The adapter marks the operation's
 * work with `operationScope`, and the handle's driver refuses a connection inside it, so the mistake
 * fails at once, in tests and in production, instead of hanging the server.
 */

export interface OperationScope {
  readonly operation: string;
  /** False once the transaction has settled: work the operation left running may use the handle. */
  open: boolean;
}

export const operationScope = new AsyncLocalStorage<OperationScope>();

/** Thrown for a query on the app's handle inside an operation's open transaction. */
export class QueryOutsideTransactionError extends Error {
  override name = 'QueryOutsideTransactionError';
  constructor(readonly operation: string) {
    super(
      `a query on the app's database handle while the transaction of ${operation} is open: use ctx.tx (on SQLite it would wait forever)`,
    );
  }
}

/**
 * The dialect with its driver refusing connections inside an open operation scope. A transaction takes
 * its one connection before the scope is entered, so only queries beside it are refused.
 */
export function guardedDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver() {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      driver.acquireConnection = () => {
        const scope = operationScope.getStore();
        if (scope?.open) return Promise.reject(new QueryOutsideTransactionError(scope.operation));
        return acquire();
      };
      return driver;
    },
  };
}
