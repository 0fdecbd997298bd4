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

/** One holder at a time, in arrival order (what Kysely does for a single-connection dialect). */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  async lock(): Promise<void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
  }

  unlock(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

/**
 * The dialect with its driver refusing connections inside an open operation scope. A transaction takes
 * its one connection before the scope is entered, so only queries beside it are refused. The check
 * must come before the wait for SQLite's one connection, so the guarded driver keeps that wait itself
 * (and tells Kysely, whose own wait would come first, that it need not).
 */
export function guardedDialect(dialect: Dialect): Dialect {
  const adapter = dialect.createAdapter();
  const mutex = adapter.supportsMultipleConnections ? null : new Mutex();
  const guardedAdapter = new Proxy(adapter, {
    get(target, property) {
      if (property === 'supportsMultipleConnections') return true;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    createAdapter: () => guardedAdapter,
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver() {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      const release = driver.releaseConnection.bind(driver);
      driver.acquireConnection = async () => {
        const scope = operationScope.getStore();
        if (scope?.open) throw new QueryOutsideTransactionError(scope.operation);
        await mutex?.lock();
        try {
          return await acquire();
        } catch (error) {
          mutex?.unlock();
          throw error;
        }
      };
      driver.releaseConnection = async (connection) => {
        try {
          await release(connection);
        } finally {
          mutex?.unlock();
        }
      };
      return driver;
    },
  };
}
