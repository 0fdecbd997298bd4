import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUserRow } from '../../src/domain/accounts/accounts';
import { generateRecoveryCodes, useRecoveryCode } from '../../src/domain/factors/recovery-codes';
import { confirmTotp, hasTotp, removeTotp, startTotp, useTotp } from '../../src/domain/factors/totp';
import { backend, freshMobile, startServer, type TestServer } from '../support/server';

/**
 * The factors' storage on the project's database (SQLite, or PostgreSQL): the pending enrolment's
 * upsert, the conditional updates that make a step and a recovery code usable once under concurrent
 * uses, the window edges on the server's clock as the test sets it. The routes are in
 * test/factors.test.ts (SQLite). The Redis project keeps SQLite as its database, so it skips this file.
 */

let server: TestServer;
const STEP = 30_000;
/** A time 10 s into a step. */
const T0 = Math.floor(Date.UTC(2030, 0, 1) / STEP) * STEP + 10_000;

beforeAll(async () => {
  if (backend === 'redis') return;
  server = await startServer();
});
afterAll(() => server?.close());

async function account() {
  const row = newUserRow(Date.now(), { mobile: freshMobile() });
  await server.app.db.insertInto('users').values(row).execute();
  return row.id;
}

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: at,
  });

const errorNameOf = (error: unknown) => (error as { errorName?: string }).errorName;

describe.skipIf(backend === 'redis')('authenticator factors in the database', () => {
  it('replaces a pending enrolment, refuses a second once confirmed, and confirms by the first code', async () => {
    const db = server.app.db;
    const userId = await account();
    const first = await startTotp(db, server.app.secret, userId, 'someone', 'Portico', T0);
    const second = await startTotp(db, server.app.secret, userId, 'someone', 'Portico', T0);
    expect(second.secret).not.toBe(first.secret);
    // The first secret was replaced: its code confirms nothing.
    await expect(
      confirmTotp(db, server.app.secret, userId, codeAt(first.secret, T0), T0),
    ).rejects.toMatchObject({
      errorName: 'codeWrong',
    });
    await confirmTotp(db, server.app.secret, userId, codeAt(second.secret, T0), T0);
    expect(await hasTotp(db, userId)).toBe(true);
    await expect(startTotp(db, server.app.secret, userId, 'someone', 'Portico', T0)).rejects.toMatchObject({
      errorName: 'factorAlreadyEnrolled',
    });
    expect(await removeTotp(db, userId)).toBe(true);
    expect(await hasTotp(db, userId)).toBe(false);
  });

  it('answers FACTOR_UNAVAILABLE, not a 500, for an authenticator sealed with another SECRET', async () => {
    const db = server.app.db;
    const userId = await account();
    const { secret } = await startTotp(db, server.app.secret, userId, 'someone', 'Portico', T0);
    await confirmTotp(db, server.app.secret, userId, codeAt(secret, T0), T0);
    const another = Buffer.from('another server secret, at least 32 characters');
    const refused = await useTotp(db, another, userId, codeAt(secret, T0 + 30_000), T0 + 30_000).catch(
      (e) => e,
    );
    expect(errorNameOf(refused)).toBe('factorUnavailable');
  });

  it('accepts ±1 step, refuses ±2, a reused step and an earlier step; 20 concurrent uses of a code → 1', async () => {
    const db = server.app.db;
    const { secret: key } = server.app;
    const userId = await account();
    const { secret } = await startTotp(db, key, userId, 'someone', 'Portico', T0);
    await confirmTotp(db, key, userId, codeAt(secret, T0), T0);
    const at = T0 + 10 * STEP;
    for (const offset of [-2, 2])
      await expect(useTotp(db, key, userId, codeAt(secret, at + offset * STEP), at)).rejects.toMatchObject({
        errorName: 'codeWrong',
      });
    await useTotp(db, key, userId, codeAt(secret, at - STEP), at);
    await expect(useTotp(db, key, userId, codeAt(secret, at - STEP), at)).rejects.toMatchObject({
      errorName: 'totpCodeUsed',
    });
    await useTotp(db, key, userId, codeAt(secret, at + STEP), at);
    // The current step is older than the one just used: spent.
    await expect(useTotp(db, key, userId, codeAt(secret, at), at)).rejects.toMatchObject({
      errorName: 'totpCodeUsed',
    });

    const later = at + 10 * STEP;
    const code = codeAt(secret, later);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => useTotp(db, key, userId, code, later)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(errorNameOf(result.reason)).toBe('totpCodeUsed');
  });

  it('spends a recovery code once of 20 concurrent uses, and a new set ends the old', async () => {
    const db = server.app.db;
    const { secret: key } = server.app;
    const userId = await account();
    const codes = await generateRecoveryCodes(db, key, userId, T0);
    const code = codes[0] as string;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => useRecoveryCode(db, key, userId, code, T0)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(errorNameOf(result.reason)).toBe('codeWrong');

    const fresh = await generateRecoveryCodes(db, key, userId, T0);
    await expect(useRecoveryCode(db, key, userId, codes[1] as string, T0)).rejects.toMatchObject({
      errorName: 'codeWrong',
    });
    await useRecoveryCode(db, key, userId, fresh[1] as string, T0);
    // Another account's code is not this one's.
    const other = await account();
    await expect(useRecoveryCode(db, key, other, fresh[2] as string, T0)).rejects.toMatchObject({
      errorName: 'codeWrong',
    });
  });
});
