import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke, type Principal } from '../src/adapters/invoke';
import { CANCEL_TICKET_PURPOSE } from '../src/domain/cancellation/cancellation';
import { createTickets } from '../src/domain/tickets/tickets';
import { confirmCancellation } from '../src/operations/account/cancellation';
import { updateUserInfo } from '../src/operations/account/profile';
import { signIn } from '../src/operations/sign-in/sign-in';
import { signOut } from '../src/operations/sign-in/sign-out';
import { signInBySms } from './support/flows';
import { startServer, type TestServer } from './support/server';

/**
 * The account's operations called directly: their events are recorded in their transaction, so a
 * refused change leaves neither the change nor its event, and a refused confirmation keeps its ticket.
 */

/** Accounts a test blocker holds back from leaving. */
const held = new Set<string>();
let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { profileQuotas: { 'profile.name': { times: 1, windowSeconds: 3600 } } },
    {
      plugins: [
        async (app: FastifyInstance) => {
          app.cancellation.addBlocker({
            key: 'held',
            check: async (_scope, user) => (held.has(user.id) ? {} : null),
          });
        },
      ],
    },
  );
});
afterAll(() => server?.close());

async function person(): Promise<Principal & { kind: 'person' }> {
  const { userId } = await signInBySms(server, server.browser());
  const user = await server.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { kind: 'person', user };
}

const eventsOf = (userId: string, type: string) =>
  server.app.db
    .selectFrom('events')
    .select(['data', 'ip'])
    .where('stream', '=', `user:${userId}`)
    .where('type', '=', type)
    .execute();

describe('the profile', () => {
  it('records which fields changed with the change; a refused or empty change records nothing', async () => {
    const as = await person();
    const request = { ip: '10.1.2.3', deviceId: null };
    const profile = await invoke(server.app, updateUserInfo, { name: 'Ada', gender: 2 }, as, request);
    expect(profile).toMatchObject({ name: 'Ada', gender: 2 });
    expect(await eventsOf(as.user.id, 'account.profile_updated')).toEqual([
      { data: JSON.stringify({ fields: ['name', 'gender'] }), ip: '10.1.2.3' },
    ]);
    // Over the name's quota (1): the description sent with it is not written either, and no event.
    await expect(
      invoke(server.app, updateUserInfo, { name: 'Grace', description: 'new' }, as),
    ).rejects.toMatchObject({ errorName: 'updateLimitReached' });
    // The same values again: not a change.
    await invoke(server.app, updateUserInfo, { name: 'Ada' }, as);
    expect(await eventsOf(as.user.id, 'account.profile_updated')).toHaveLength(1);
    const row = await server.app.db
      .selectFrom('users')
      .select(['screen_name', 'description'])
      .where('id', '=', as.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ screen_name: 'Ada', description: '' });
  });
});

describe('the cancellation', () => {
  it('a confirmation refused keeps its ticket and records nothing; one that goes records its event', async () => {
    const as = await person();
    const { ticket } = await createTickets(server.app).issue({
      purpose: CANCEL_TICKET_PURPOSE,
      channel: 'mobile',
      target: as.user.id,
      userId: as.user.id,
    });
    held.add(as.user.id);
    await expect(
      invoke(server.app, confirmCancellation, { cancel_ticket: ticket }, as),
    ).rejects.toMatchObject({ errorName: 'cancelBlocked' });
    held.delete(as.user.id);
    expect(await eventsOf(as.user.id, 'account.cancellation_requested')).toEqual([]);
    const confirmed = await invoke(server.app, confirmCancellation, { cancel_ticket: ticket }, as);
    expect(confirmed).toMatchObject({ state: 'pending' });
    expect(await eventsOf(as.user.id, 'account.cancellation_requested')).toEqual([
      { data: JSON.stringify({ eraseAt: confirmed.erase_at }), ip: null },
    ]);
    // Every session ended with it.
    const sessions = await server.app.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', as.user.id)
      .execute();
    expect(sessions).toEqual([]);
    await expect(
      invoke(server.app, confirmCancellation, { cancel_ticket: ticket }, as),
    ).rejects.toMatchObject({ errorName: 'ticketInvalid' });
    await invoke(server.app, confirmCancellation, { abandon: 1 }, as);
    await expect(invoke(server.app, confirmCancellation, { abandon: 1 }, as)).rejects.toMatchObject({
      errorName: 'cancelNotPending',
    });
    expect(await eventsOf(as.user.id, 'account.cancellation_abandoned')).toHaveLength(1);
  });
});

describe('the sign-in operations', () => {
  const browserOf = (session: { id: string; userId: string } | null) => ({
    ip: '10.9.8.7',
    deviceId: null,
    browser: {
      ip: '10.9.8.7',
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/140.0',
      fingerprint: null,
      did: null,
      deviceToken: null,
      session: session && {
        ...session,
        absoluteExpiresAt: Date.now() + 3_600_000,
        verifiedAt: null,
        factorVerifiedAt: null,
        deputyId: null,
      },
    },
  });
  const sessionsOf = (userId: string) =>
    server.app.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute();

  it('write the session, the device and account.signed_in together, for the browser the adapter hands over', async () => {
    const as = await person();
    const before = await sessionsOf(as.user.id);
    const proven = { ...as, signIn: { proof: 'password' as const, newUser: false } };
    const signedIn = await invoke(server.app, signIn, {}, proven, browserOf(null));
    expect(signedIn.newUser).toBe(false);
    expect(signedIn.device.known).toBe(false);
    expect(await sessionsOf(as.user.id)).toHaveLength(before.length + 1);
    expect((await eventsOf(as.user.id, 'account.signed_in')).at(-1)).toEqual({
      data: JSON.stringify({ method: 'password', newDevice: true }),
      ip: '10.9.8.7',
    });
    // Signing out ends the session the browser presented, with its event, in one transaction.
    const id = signedIn.session.session.id;
    const ended = await invoke(
      server.app,
      signOut,
      {},
      { kind: 'anonymous' },
      browserOf({ id, userId: as.user.id }),
    );
    expect(ended).toEqual({ signedOut: true });
    expect(await sessionsOf(as.user.id)).toHaveLength(before.length);
    expect(await eventsOf(as.user.id, 'account.session_revoked')).toEqual([
      { data: JSON.stringify({ reason: 'signed_out' }), ip: '10.9.8.7' },
    ]);
  });

  it('sign nobody in without a browser or without the sign-in an adapter proved, and record nothing', async () => {
    const as = await person();
    const before = await eventsOf(as.user.id, 'account.signed_in');
    const proven = { ...as, signIn: { proof: 'password' as const, newUser: false } };
    await expect(invoke(server.app, signIn, {}, proven)).rejects.toThrow(/no browser/);
    await expect(invoke(server.app, signIn, {}, as, browserOf(null))).rejects.toThrow(/proved/);
    expect(await eventsOf(as.user.id, 'account.signed_in')).toEqual(before);
    // Without a session to end, a sign-out changes nothing and records nothing.
    expect(await invoke(server.app, signOut, {}, { kind: 'anonymous' }, browserOf(null))).toEqual({
      signedOut: false,
    });
    expect(await eventsOf(as.user.id, 'account.session_revoked')).toEqual([]);
  });
});
