import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../src/events/outbox';
import { startServer, type TestServer } from './support/server';

describe('the events outbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const signedIn = (userId: string) =>
    ({
      type: 'account.signed_in',
      stream: `user:${userId}`,
      actor: { kind: 'person', userId },
      targetUserId: userId,
      data: { method: 'password', newDevice: true },
    }) as const;

  it('keeps events in commit order with their version, actor and context', async () => {
    await server.app.db.transaction().execute(async (tx) => {
      await recordEvents(tx, [signedIn('u-order-1'), signedIn('u-order-2')], { at: 1_000, ip: '10.0.0.1' });
    });
    const rows = await server.app.db
      .selectFrom('events')
      .selectAll()
      .where('stream', 'in', ['user:u-order-1', 'user:u-order-2'])
      .orderBy('position')
      .execute();
    expect(rows.map((row) => row.stream)).toEqual(['user:u-order-1', 'user:u-order-2']);
    expect(rows[0]).toMatchObject({
      type: 'account.signed_in',
      version: 1,
      actor_user_id: 'u-order-1',
      target_user_id: 'u-order-1',
      ip: '10.0.0.1',
      occurred_at: 1_000,
    });
    expect(JSON.parse(rows[0]?.data ?? '')).toEqual({ method: 'password', newDevice: true });
    expect(Number(rows[1]?.position)).toBeGreaterThan(Number(rows[0]?.position));
  });

  it('rolls back with the change that caused them', async () => {
    await expect(
      server.app.db.transaction().execute(async (tx) => {
        await recordEvents(tx, [signedIn('u-rollback')], { at: 2_000 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const rows = await server.app.db
      .selectFrom('events')
      .select('id')
      .where('stream', '=', 'user:u-rollback')
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses data that does not match its schema, and types not in the catalogue', async () => {
    const bad = { ...signedIn('u-bad'), data: { method: 'password' } } as unknown as ReturnType<
      typeof signedIn
    >;
    await expect(recordEvents(server.app.db, [bad], { at: 3_000 })).rejects.toThrow(
      /does not match its schema/,
    );
    const unknown = { ...signedIn('u-bad'), type: 'account.unknown' } as unknown as ReturnType<
      typeof signedIn
    >;
    await expect(recordEvents(server.app.db, [unknown], { at: 3_000 })).rejects.toThrow(
      /not in the catalogue/,
    );
  });
});
