import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, type EventType } from '../src/events/catalogue';
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

describe('the event catalogue', () => {
  // What the design's events list names (docs/operations.md, "Events"), each a versioned schema: a
  // type dropped or renamed fails here before a consumer (the audit log, its screens) misses it.
  // The authorised apps' own events come with the authorization server's consent records.
  const REQUIRED = [
    'account.signed_in',
    'account.sign_in_failed',
    'account.session_revoked',
    'account.password_changed',
    'account.password_set',
    'account.identifier_bound',
    'account.identifier_changed',
    'account.third_party_linked',
    'account.third_party_unlinked',
    'account.profile_updated',
    'account.cancellation_requested',
    'account.cancellation_abandoned',
    'account.cancellation_completed',
    'organisation.created',
    'organisation.updated',
    'organisation.frozen',
    'organisation.member.invited',
    'organisation.member.joined',
    'organisation.member.removed',
    'organisation.member.frozen',
    'organisation.role.created',
    'organisation.role.updated',
    'organisation.role.banned',
    'organisation.role.granted',
    'organisation.role.revoked',
    'organisation.manager.transferred',
  ] as const satisfies readonly EventType[];

  it('declares every required type with a version and a data schema', () => {
    for (const type of REQUIRED) {
      const definition = EVENTS.get(type);
      expect(definition, type).toBeDefined();
      expect(definition!.version, type).toBeGreaterThanOrEqual(1);
      expect(definition!.data, type).toBeTypeOf('object');
    }
  });
});
