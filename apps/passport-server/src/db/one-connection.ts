import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type KyselyConfig,
  type TransactionBuilder,
  type TransactionSettings,
} from 'kysely';

/**
 * SQLite has one connection, and a transaction holds it until its callback returns: a query on the
 * root handle from inside that callback waits for the connection the transaction will never give back,
 * and from then on every query of the server waits behind it. This handle turns that hang into an
 * error at once: the transaction's callback runs with a marker in its async context, and the driver
 * refuses to lend the connection to a query made under the marker. Queries of other requests, outside
 * any transaction's callback, wait for the connection as before.
 */
const insideTransaction = new AsyncLocalStorage<true>();

export class QueryOutsideTransactionError extends Error {
  override name = 'QueryOutsideTransactionError';
  constructor() {
    super(
      'a query on the root database handle inside an open transaction: on SQLite it would wait for the ' +
        "transaction's own connection forever; run it on the transaction",
    );
  }
}

/**
 * The driver of `inner` (one connection), lending it to one query or transaction at a time as Kysely's
 * own mutex would, but refusing it at once to a query made inside a transaction's callback. The lock
 * is here rather than in Kysely's runtime driver (the adapter says "several connections" to turn that
 * one off) because Kysely's waits for the lock before the driver is asked.
 */
class OneConnectionDriver implements Driver {
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;
  constructor(private readonly inner: Driver) {}
  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    if (insideTransaction.getStore()) throw new QueryOutsideTransactionError();
    while (this.held) await this.held;
    this.held = new Promise((resolve) => {
      this.release = resolve;
    });
    return this.inner.acquireConnection();
  }
  async releaseConnection(connection: DatabaseConnection) {
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      const release = this.release;
      this.held = undefined;
      this.release = undefined;
      release?.();
    }
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  destroy() {
    return this.inner.destroy();
  }
}

function oneConnectionDialect(inner: Dialect): Dialect {
  return {
    createDriver: () => new OneConnectionDriver(inner.createDriver()),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => {
      const adapter = inner.createAdapter();
      // The lock is the driver's (above); Kysely's own would queue the query before the driver sees it.
      return new Proxy(adapter, {
        get: (target, key) =>
          key === 'supportsMultipleConnections' ? true : Reflect.get(target, key, target),
      });
    },
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

/** A transaction builder whose callback runs under the marker (and whose variants keep it). */
function marked<DB>(builder: TransactionBuilder<DB>): TransactionBuilder<DB> {
  return new Proxy(builder, {
    get(target, key) {
      if (key === 'execute')
        return (callback: Parameters<TransactionBuilder<DB>['execute']>[0]) =>
          target.execute((trx) => insideTransaction.run(true, () => callback(trx)));
      if (key === 'setAccessMode' || key === 'setIsolationLevel')
        return (value: never) => marked(target[key](value));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Kysely over a database with one connection (SQLite), where a query beside an open transaction fails. */
export class OneConnectionKysely<DB> extends Kysely<DB> {
  constructor(config: KyselyConfig) {
    super({ ...config, dialect: oneConnectionDialect(config.dialect) });
  }
  override transaction(): TransactionBuilder<DB> {
    return marked(super.transaction());
  }
}
