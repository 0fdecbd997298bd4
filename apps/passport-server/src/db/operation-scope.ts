import { AsyncLocalStorage } from 'node:async_hooks';
import { type Dialect, Kysely, type KyselyConfig, type TransactionBuilder } from 'kysely';

/**
 * While a transaction is open, the work inside it goes through that transaction. A query on the app's
 * handle instead would, on SQLite, wait for the one connection the transaction holds — forever, and
 * every later query of the server behind it — and on PostgreSQL it would read outside the transaction
 * and may wait on its locks. Two marks in the async context catch it, and the handle's driver refuses
 * a connection under either, so the mistake fails at once, in tests and in production, instead of
 * hanging the server:
 * - `operationScope`: the adapter marks an operation's work (every dialect; `ctx.tx` is the way in);
 * - on SQLite, the callback of any transaction on the handle (`GuardedKysely`), for the flows that are
 *   not operations yet. Queries of other requests, outside both marks, wait for the connection.
 */

export interface OperationScope {
  readonly operation: string;
  /** False once the transaction has settled: work the operation left running may use the handle. */
  open: boolean;
}

export const operationScope = new AsyncLocalStorage<OperationScope>();

/**
 * Set while the callback of a transaction on a one-connection (SQLite) handle runs. `open` turns false
 * once it has settled: work the callback left running (a timer, the events dispatcher's wake) keeps
 * the async context but may use the handle then.
 */
const insideTransaction = new AsyncLocalStorage<{ open: boolean }>();

/** Thrown for a query on the app's handle inside an open transaction (an operation's, or any on SQLite). */
export class QueryOutsideTransactionError extends Error {
  override name = 'QueryOutsideTransactionError';
  constructor(readonly operation?: string) {
    super(
      operation
        ? `a query on the app's database handle while the transaction of ${operation} is open: use ctx.tx (on SQLite it would wait forever)`
        : "a query on the app's database handle inside an open transaction: run it on the transaction (on SQLite it would wait for the transaction's own connection forever)",
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
        if (insideTransaction.getStore()?.open) throw new QueryOutsideTransactionError();
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

/** A transaction builder whose callback runs under the SQLite mark (and whose variants keep it). */
function marked<DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  return new Proxy(builder, {
    get(target, key) {
      if (key === 'execute')
        return (callback: Parameters<TransactionBuilder<DB>['execute']>[0]) =>
          target.execute((trx) => {
            const mark = { open: true };
            return insideTransaction.run(mark, async () => {
              try {
                return await callback(trx);
              } finally {
                mark.open = false;
              }
            });
          });
      if (key === 'setAccessMode' || key === 'setIsolationLevel')
        return (value: never) => marked(target[key](value));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Kysely over SQLite's one connection, guarded: a query on it from inside one of its own transactions'
 * callbacks fails at once instead of waiting for the connection the transaction holds.
 */
export class GuardedKysely<DB> extends Kysely<DB> {
  constructor(config: KyselyConfig) {
    super({ ...config, dialect: guardedDialect(config.dialect) });
  }
  override transaction(): TransactionBuilder<DB> {
    return marked(super.transaction());
  }
}
