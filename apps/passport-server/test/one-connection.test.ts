import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryOutsideTransactionError } from '../src/db/operation-scope';
import { backend, startServer, type TestServer } from './support/server';

/**
 * The server's SQLite handle and its one connection: a query on the root handle made inside an open
 * transaction's callback would wait for that transaction's own connection forever (and every query
 * after it). It fails at once instead, so a flow that does it fails its test rather than hanging the
 * server; queries of other requests still wait their turn and run.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

const countUsers = (db: TestServer['app']['db']) =>
  db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();

describe.runIf(backend === 'sqlite')('a query beside an open transaction on SQLite', () => {
  it('fails at once, and the transaction rolls back', async () => {
    const { db } = server.app;
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        await countUsers(trx);
        return countUsers(db);
      })
      .then(
        () => 'answered',
        (error: unknown) => error,
      );
    expect(outcome).toBeInstanceOf(QueryOutsideTransactionError);
    // The connection is free again: the next query answers.
    expect(Number((await countUsers(db)).n)).toBeGreaterThanOrEqual(0);
  });

  it('lets queries made outside any transaction wait for it and run', async () => {
    const { db } = server.app;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await countUsers(trx);
      await held;
    });
    // Another request's query, started while the transaction holds the connection.
    const other = countUsers(db);
    release();
    await transaction;
    expect(Number((await other).n)).toBeGreaterThanOrEqual(0);
  });

  it('lets work that a transaction started and left running use the handle once it has committed', async () => {
    const { db } = server.app;
    // A timer set inside the callback (the events dispatcher's wake, when an event is recorded in the
    // change's transaction) fires after the commit, in the callback's async context.
    let later!: Promise<unknown>;
    await db.transaction().execute(async (trx) => {
      await countUsers(trx);
      later = new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
        countUsers(db).then(
          (row) => Number(row.n),
          (error: unknown) => error,
        ),
      );
    });
    expect(await later).toBeTypeOf('number');
  });
});
