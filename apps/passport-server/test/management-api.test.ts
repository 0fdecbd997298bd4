import type { AddressInfo } from 'node:net';
import { createManagementClient, ManagementError } from '@portico/management';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUserRow } from '../src/domain/accounts/accounts';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { openAuthRecordsOf, seedAppGrant } from './support/app-grants';
import { isSignedIn, mobileCode, passCooldown, signInBySms } from './support/flows';
import { type Browser, freshMobile, startServer, type TestServer } from './support/server';

/**
 * The management API through the published client, against the real server on loopback: an operator
 * makes keys in the web session, a product's back end uses them (docs/management-api.md).
 */
let server: TestServer;
let baseUrl: string;
let operator: Browser;
let operatorId: string;

beforeAll(async () => {
  // Send cooldowns of a few milliseconds: a test signs the same number in again (passCooldown).
  // The proxy on loopback is trusted: the guessing test acts from an address of its own.
  server = await startServer({ trustProxy: '127.0.0.1' }, { limits: { sendCooldownMs: 10 } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  operator = server.browser();
  operatorId = (await signInBySms(server, operator)).userId;
  server.app.config.operators.push(operatorId);
});
afterAll(() => server?.close());

async function createKey(scopes: string[], browser = operator) {
  // A key needs a fresh step-up: on a loaded machine the file can outlast the window since the sign-in.
  await server.app.db.updateTable('sessions').set({ verified_at: Date.now() }).execute();
  const answer = await browser.post(paths.web.operatorApiKeysCreate, {
    name: `key ${scopes.join(' ')}`,
    scopes: scopes.join(' '),
  });
  return answer.body;
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ManagementError);
  return error as ManagementError;
};

describe('API keys, made by an operator', () => {
  it('are shown once with their prefix, listed without the key, and only operators make them', async () => {
    const created = await createKey(['users:read']);
    expect(created.message).toBe('success');
    expect(created.data.key).toMatch(/^portico_sk_[A-Za-z0-9_-]{43}$/);
    expect(created.data.key.startsWith(created.data.prefix)).toBe(true);

    const listed = await operator.get(paths.web.operatorApiKeysList);
    const row = listed.body.data.keys.find((k: { id: string }) => k.id === created.data.id);
    expect(row).toMatchObject({ prefix: created.data.prefix, scopes: ['users:read'], revoked_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(created.data.key);
    const stored = await server.app.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.data.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.data.key);

    const person = server.browser();
    await signInBySms(server, person);
    expect((await createKey(['users:read'], person)).data.error_code).toBe(ErrorCode.notAnOperator);
    const unknownScope = await operator.post(paths.web.operatorApiKeysCreate, {
      name: 'x',
      scopes: 'users:read users:everything',
    });
    expect(unknownScope.status).toBe(400);
  });

  it('refuse a call without a key, with an unknown one, or past the scope the key holds', async () => {
    const { mobile, userId } = await signInBySms(server, server.browser());
    const reader = createManagementClient({ baseUrl, apiKey: (await createKey(['users:read'])).data.key });

    const nobody = createManagementClient({ baseUrl, apiKey: 'portico_sk_not-a-key' });
    const unknown = await refusal(nobody.users.get(userId));
    expect([unknown.status, unknown.errorName, unknown.code]).toEqual([
      401,
      'API_KEY_INVALID',
      ErrorCode.apiKeyInvalid,
    ]);
    const raw = await fetch(`${baseUrl}/api/v1/users/${userId}`);

    expect(raw.status).toBe(401);
    expect(raw.headers.get('content-type')).toContain('application/problem+json');

    expect(await reader.users.get(userId)).toMatchObject({ id: userId, mobile, frozen: false });
    const found = await reader.users.list({ query: mobile });
    expect(found.users.map((u) => u.id)).toEqual([userId]);
    const scope = await refusal(reader.users.freeze(userId));
    expect([scope.status, scope.errorName]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const missing = await refusal(reader.users.get('no-such-user'));
    expect([missing.status, missing.errorName]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
  });
});

describe('users, from a back end with users:write', () => {
  it('freezes an account (its sessions end, it cannot sign in), thaws it, and signs it out everywhere', async () => {
    const person = server.browser();
    const { mobile, userId } = await signInBySms(server, person);
    const admin = createManagementClient({
      baseUrl,
      apiKey: (await createKey(['users:read', 'users:write'])).data.key,
    });

    // An app the person authorised: its grant and a refresh token (the provider's own records).
    await seedAppGrant(server.app.db, userId, { clientName: 'Frozen Out' });
    expect(await admin.users.freeze(userId)).toEqual({ id: userId, frozen: true });
    // Its apps lose their access with it.
    expect(await openAuthRecordsOf(server.app.db, userId)).toEqual([]);
    expect(await isSignedIn(person)).toBe(false);
    await passCooldown();
    const again = server.browser();
    const code = await mobileCode(server, again, mobile, CodeType.mobileLogin);
    const refused = await again.post(paths.web.smsLogin, { mobile, code });
    expect(refused.body.data.error_code).toBe(ErrorCode.accountFrozen);

    expect(await admin.users.unfreeze(userId)).toEqual({ id: userId, frozen: false });
    // A key never freezes an operator: a leaked one must not lock out who can revoke it.
    const operatorFreeze = await refusal(admin.users.freeze(operatorId));
    expect([operatorFreeze.status, operatorFreeze.errorName]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    await passCooldown();
    await signInBySms(server, again, mobile);
    expect(await admin.users.revokeSessions(userId)).toEqual({ revoked: 1 });
    expect(await isSignedIn(again)).toBe(false);

    const events = await server.app.db
      .selectFrom('events')
      .select(['type', 'actor'])
      .where('stream', '=', `user:${userId}`)
      .where('type', 'in', [
        'account.frozen',
        'account.unfrozen',
        'account.sessions_revoked',
        'account.app_revoked',
      ])
      .orderBy('position')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'account.frozen',
      'account.sessions_revoked',
      // The app lost its authorisation with the freeze, in the same transaction.
      'account.app_revoked',
      'account.unfrozen',
      'account.sessions_revoked',
    ]);
    expect(JSON.parse(events[0]?.actor ?? '{}')).toMatchObject({ kind: 'apiKey' });
    const appRevoked = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('stream', '=', `user:${userId}`)
      .where('type', '=', 'account.app_revoked')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(appRevoked.data)).toEqual({
      clientId: `c-${userId}`,
      appName: 'Frozen Out',
      reason: 'frozen',
    });
  });

  it('pages through 10,000 accounts by cursor, each once', async () => {
    const now = Date.now();
    const seeded = Array.from({ length: 10_000 }, (_, i) => newUserRow(now - i, { mobile: freshMobile() }));
    for (let i = 0; i < seeded.length; i += 500)
      await server.app.db
        .insertInto('users')
        .values(seeded.slice(i, i + 500))
        .execute();
    const reader = createManagementClient({ baseUrl, apiKey: (await createKey(['users:read'])).data.key });
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await reader.users.list({ limit: 100, ...(cursor ? { cursor } : {}) });
      for (const user of page.users) {
        expect(seen.has(user.id)).toBe(false);
        seen.add(user.id);
      }
      cursor = page.next_cursor ?? undefined;
      pages += 1;
    } while (cursor);
    for (const row of seeded) expect(seen.has(row.id)).toBe(true);
    expect(pages).toBeGreaterThanOrEqual(100);
    const bad = await refusal(reader.users.list({ cursor: 'not-a-cursor' }));
    expect(bad.status).toBe(400);
    const fractional = Buffer.from(JSON.stringify([1.5, 'x'])).toString('base64url');
    expect((await refusal(reader.users.list({ cursor: fractional }))).status).toBe(400);
  });
});

describe('rotation and revocation', () => {
  it('a rotated key works through its overlap beside the new one; a revoked key stops at once', async () => {
    const { userId } = await signInBySms(server, server.browser());
    const first = (await createKey(['users:read'])).data;
    const rotated = await operator.post(paths.web.operatorApiKeysRotate, { id: first.id, overlap_hours: 1 });
    expect(rotated.body.message).toBe('success');
    const old = createManagementClient({ baseUrl, apiKey: first.key });
    const fresh = createManagementClient({ baseUrl, apiKey: rotated.body.data.key });
    expect((await old.users.get(userId)).id).toBe(userId);
    expect((await fresh.users.get(userId)).id).toBe(userId);

    const ended = await operator.post(paths.web.operatorApiKeysRotate, {
      id: rotated.body.data.id,
      overlap_hours: 0,
    });
    expect((await refusal(fresh.users.get(userId))).status).toBe(401);
    const newest = createManagementClient({ baseUrl, apiKey: ended.body.data.key });
    expect((await newest.users.get(userId)).id).toBe(userId);

    await operator.post(paths.web.operatorApiKeysRevoke, { id: ended.body.data.id });
    expect((await refusal(newest.users.get(userId))).errorName).toBe('API_KEY_INVALID');
  });
});

// Last in the file: it spends the loopback address's budget of calls without a usable key.
describe('guessing keys', () => {
  it('is slowed per address: past 30 calls a minute without a usable key, 429', async () => {
    // An address no other test calls from: its minute starts with this test's first guess, whatever
    // the refusals earlier tests made from 127.0.0.1 and however long they took.
    const nobody = createManagementClient({
      baseUrl,
      apiKey: 'portico_sk_guess',
      fetch: (url, init) =>
        fetch(url, { ...init, headers: { ...(init?.headers as object), 'x-forwarded-for': '203.0.113.77' } }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await refusal(nobody.users.get('someone'))).status);
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
  });
});
