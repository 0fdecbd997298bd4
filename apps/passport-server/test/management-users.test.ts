import type { AddressInfo } from 'node:net';
import { createManagementClient, ManagementError } from '@portico/management';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/protocol';
import { isSignedIn, signInBySms } from './support/flows';
import { type Browser, freshEmail, freshMobile, startServer, type TestServer } from './support/server';

/**
 * The management API's user resources through the published client, against the real server on
 * loopback (SQLite, and PostgreSQL in its project): create with identifiers, idempotency, update,
 * sessions, linked accounts, factors, delete by the cancellation rules (docs/management-api.md).
 */
let server: TestServer;
let baseUrl: string;
let operator: Browser;

beforeAll(async () => {
  server = await startServer({}, { limits: { sendCooldownMs: 10 } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  operator = server.browser();
  const { userId } = await signInBySms(server, operator);
  server.app.config.operators.push(userId);
});
afterAll(() => server?.close());

async function client(scopes: string[]) {
  await server.app.db.updateTable('sessions').set({ verified_at: Date.now() }).execute();
  const answer = await operator.post(paths.web.operatorApiKeysCreate, {
    name: `key ${scopes.join(' ')}`,
    scopes: scopes.join(' '),
  });
  expect(answer.body.message, 'fixture: a key').toBe('success');
  const key = answer.body.data.key as string;
  return Object.assign(createManagementClient({ baseUrl, apiKey: key }), { key });
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ManagementError);
  return error as ManagementError;
};

const eventsOf = (userId: string) =>
  server.app.db
    .selectFrom('events')
    .select(['type', 'actor', 'data'])
    .where('stream', '=', `user:${userId}`)
    .orderBy('position')
    .execute();

describe('creating accounts', () => {
  it('normalises the identifiers, refuses a taken one (409) and one without a way in', async () => {
    const admin = await client(['users:read', 'users:write']);
    const mobile = freshMobile();
    const email = freshEmail();
    const spaced = `${mobile.slice(0, 3)} ${mobile.slice(3, 6)} ${mobile.slice(6)}`;
    const username = `Ann_${Date.now() % 1_000_000}`;
    const created = await admin.users.create({
      mobile: spaced,
      email: `  ${email.toUpperCase()} `,
      username,
      name: 'Ann  Lee',
    });
    expect(created).toMatchObject({
      mobile,
      email,
      username: username.toLowerCase(),
      name: 'Ann Lee',
      frozen: false,
      has_password: false,
    });
    expect(await admin.users.get(created.id)).toEqual(created);
    const events = await eventsOf(created.id);
    expect(events[0]).toMatchObject({ type: 'account.created' });
    expect(JSON.parse(events[0]?.data ?? '{}')).toEqual({ identifiers: ['mobile', 'email', 'username'] });
    expect(JSON.parse(events[0]?.actor ?? '{}')).toMatchObject({ kind: 'apiKey' });

    const taken = await refusal(admin.users.create({ email: email.toUpperCase() }));
    expect([taken.status, taken.errorName]).toEqual([409, 'IDENTIFIER_TAKEN']);
    const noWayIn = await refusal(admin.users.create({ username: `only${Date.now() % 1e6}` }));
    expect(noWayIn.status).toBe(400);
    const badMobile = await refusal(admin.users.create({ mobile: '12' }));
    expect([badMobile.status, badMobile.errorName]).toEqual([400, 'INVALID_MOBILE']);

    // The person signs in with the mobile the back end gave them: the same account.
    const person = server.browser();
    expect((await signInBySms(server, person, mobile)).userId).toBe(created.id);

    const reader = await client(['users:read']);
    const scope = await refusal(reader.users.create({ mobile: freshMobile() }));
    expect([scope.status, scope.errorName]).toEqual([403, 'INSUFFICIENT_SCOPE']);
  });

  it('answers a retried create with its first answer; the same key with another body is a 422', async () => {
    const admin = await client(['users:write']);
    const mobile = freshMobile();
    const idempotencyKey = `create-${mobile}`;
    const first = await admin.users.create({ mobile, name: 'Bo' }, { idempotencyKey });
    // The same body in another member order is the same body.
    const raw = await fetch(`${baseUrl}/api/v1/users`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin.key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({ name: 'Bo', mobile }),
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual(first);
    const again = await admin.users.create({ mobile, name: 'Bo' }, { idempotencyKey });
    expect(again).toEqual(first);
    const other = await refusal(admin.users.create({ mobile, name: 'Other' }, { idempotencyKey }));
    expect([other.status, other.errorName]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    // Without the key, a second create is a second request: the mobile is taken.
    expect((await refusal(admin.users.create({ mobile, name: 'Bo' }))).status).toBe(409);
    // A refused first request keeps nothing: the key is free for the corrected body.
    const refusedKey = `refused-${mobile}`;
    expect((await refusal(admin.users.create({ mobile }, { idempotencyKey: refusedKey }))).status).toBe(409);
    const fresh = freshMobile();
    expect((await admin.users.create({ mobile: fresh }, { idempotencyKey: refusedKey })).mobile).toBe(fresh);
    // Kept in the store for a day, under the API key (another key's same header is its own).
    const kept = await server.app.db
      .selectFrom('store_entries')
      .select(['key', 'expires_at'])
      .where('key', 'like', 'idempotency:%')
      .execute()
      .catch(() => []);
    for (const row of kept) expect(Number(row.expires_at) - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
  });
});

describe('updating, sessions, linked accounts and factors', () => {
  it('updates the name and username, and refuses a taken username', async () => {
    const admin = await client(['users:read', 'users:write']);
    const a = await admin.users.create({ mobile: freshMobile() });
    const b = await admin.users.create({ mobile: freshMobile(), username: `taken${Date.now() % 1e6}` });
    const updated = await admin.users.update(a.id, { name: 'Cai', username: `Cai${Date.now() % 1e6}` });
    expect(updated).toMatchObject({ id: a.id, name: 'Cai' });
    expect(updated.username).toMatch(/^cai\d+$/);
    const taken = await refusal(admin.users.update(a.id, { username: b.username ?? '' }));
    expect([taken.status, taken.errorName]).toEqual([409, 'USERNAME_TAKEN']);
    const types = (await eventsOf(a.id)).map((e) => e.type);
    expect(types).toContain('account.profile_updated');
    const missing = await refusal(admin.users.update('no-such-user', { name: 'x' }));
    expect(missing.status).toBe(404);
  });

  it('lists sessions and linked accounts, leaving a trail; unlinks and resets factors', async () => {
    const admin = await client(['users:read', 'users:write']);
    const person = server.browser();
    const { userId } = await signInBySms(server, person);
    const { sessions } = await admin.users.sessions(userId);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.id).toMatch(/^[0-9a-f]{16}$/);
    const hash = await server.app.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(sessions)).not.toContain(hash.token_hash);

    const now = Date.now();
    await server.app.db
      .insertInto('linked_identities')
      .values({
        id: `li-${userId}`,
        user_id: userId,
        provider: 'github',
        subject: `gh-${userId}`,
        email: 'gh@example.com',
        name: 'GH',
        avatar_url: null,
        created_at: now,
        last_used_at: null,
      })
      .execute();
    expect((await admin.users.linkedAccounts(userId)).linked_accounts).toEqual([
      { provider: 'github', email: 'gh@example.com', name: 'GH', linked_at: now, last_used_at: null },
    ]);
    // Each look at one person is in their stream: who looked, at what.
    const viewed = (await eventsOf(userId)).filter((e) => e.type === 'account.viewed');
    expect(viewed.map((e) => JSON.parse(e.data).call)).toEqual(['listUserSessions', 'listLinkedAccounts']);
    expect(JSON.parse(viewed[0]?.actor ?? '{}')).toMatchObject({ kind: 'apiKey' });

    expect((await admin.users.unlink(userId, 'github')).linked_accounts).toEqual([]);
    const again = await refusal(admin.users.unlink(userId, 'github'));
    expect(again.status).toBe(400);

    // An authenticator app and recovery codes, as enrolment leaves them.
    await server.app.db
      .insertInto('totp_factors')
      .values({ user_id: userId, secret: 'sealed', created_at: now, confirmed_at: now, last_step: null })
      .execute();
    await server.app.db
      .insertInto('recovery_codes')
      .values(
        Array.from({ length: 3 }, (_, i) => ({
          code_hash: `h-${userId}-${i}`,
          user_id: userId,
          created_at: now,
          used_at: null,
        })),
      )
      .execute();
    expect(await admin.users.resetFactors(userId)).toEqual({ totp: true, recovery_codes: 3, passkeys: 0 });
    expect(await admin.users.resetFactors(userId, { factors: ['totp'] })).toEqual({
      totp: false,
      recovery_codes: 0,
      passkeys: 0,
    });
    const removed = (await eventsOf(userId)).filter((e) => e.type === 'account.factor_removed');
    expect(removed.map((e) => JSON.parse(e.data).method)).toEqual(['totp', 'recovery_codes']);
    expect(await isSignedIn(person)).toBe(true);
  });
});

describe('deleting accounts by the cancellation rules', () => {
  it('starts the cooling-off period, erases at once when asked, and is refused by a blocker', async () => {
    const admin = await client(['users:read', 'users:write']);
    const person = server.browser();
    const { userId } = await signInBySms(server, person);
    const pending = await admin.users.delete(userId);
    expect(pending.state).toBe('pending');
    expect(pending.erase_at).toBeGreaterThan(Date.now());
    expect(await isSignedIn(person)).toBe(false);
    // Asked again, the same pending deletion.
    expect(await admin.users.delete(userId)).toEqual(pending);

    const erased = await admin.users.delete(userId, { erase: 'now' });
    expect(erased).toEqual({ id: userId, state: 'erased', erase_at: null });
    expect((await refusal(admin.users.get(userId))).status).toBe(404);
    const row = await server.app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect([row.mobile, row.email, row.erased_at !== null]).toEqual([null, null, true]);
    const types = (await eventsOf(userId)).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['account.cancellation_requested', 'account.cancellation_completed']),
    );

    // A frozen account is under a hold: thaw it first.
    const frozen = await admin.users.create({ mobile: freshMobile() });
    await admin.users.freeze(frozen.id);
    const blocked = await refusal(admin.users.delete(frozen.id, { erase: 'now' }));
    expect([blocked.status, blocked.errorName]).toEqual([400, 'CANCEL_BLOCKED']);
  });
});
