import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConsoleCapability } from '../src/operations/operator/console';
import { affiliatePaths as aff, ErrorCode } from '../src/protocol';
import { operatorConsolePath, operatorConsoleRoutes } from '../src/routes/web/operator-console';
import { isSignedIn, signInBySms } from './support/flows';
import { type Browser, startServer, type TestServer } from './support/server';

/**
 * The admin console's routes (docs/admin-console.md): the management API's operations with an
 * operator's session as the caller. Several people at once: the operator, another operator, a person
 * who is not one, the people the console acts on.
 */
let server: TestServer;
let operator: Browser;
let operatorId: string;
let otherOperatorId: string;

beforeAll(async () => {
  server = await startServer({}, { limits: { sendCooldownMs: 10 } });
  operator = server.browser();
  operatorId = (await signInBySms(server, operator)).userId;
  otherOperatorId = (await signInBySms(server, server.browser())).userId;
  server.app.config.operators.push(operatorId, otherOperatorId);
});
afterAll(() => server?.close());

/** The step-up is fresh for every session (a loaded machine can outlast the window since sign-in). */
const fresh = () => server.app.db.updateTable('sessions').set({ verified_at: Date.now() }).execute();
/** The operator's step-up is an hour old. */
const stale = (userId: string) =>
  server.app.db
    .updateTable('sessions')
    .set({ verified_at: Date.now() - 3_600_000 })
    .where('user_id', '=', userId)
    .execute();

const get = (browser: Browser, capability: ConsoleCapability, query: Record<string, string> = {}) =>
  browser.get(`${operatorConsolePath(capability)}?${new URLSearchParams(query)}`);
const post = (browser: Browser, capability: ConsoleCapability, form: Record<string, string | number>) =>
  browser.post(operatorConsolePath(capability), form);

/** Whether the account is frozen, as stored (what a refused call must leave alone). */
async function isFrozen(userId: string) {
  const row = await server.app.db
    .selectFrom('users')
    .select('is_frozen')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.is_frozen) === 1;
}

/** A request any route of the console accepts in shape, for `id`. */
async function call(browser: Browser, capability: ConsoleCapability, id: string) {
  const route = operatorConsoleRoutes.find((r) => r.at[0]?.[1] === operatorConsolePath(capability));
  const input: Record<string, string | number> =
    capability === 'organisations/freeze' ? { id, is_frozen: 1 } : { id };
  if (capability.endsWith('/list')) return get(browser, capability);
  return route?.method === 'GET' ? get(browser, capability, { id }) : post(browser, capability, input);
}

const CAPABILITIES = operatorConsoleRoutes.map(
  (route) =>
    route.at[0]?.[1].replace('/passport/web/operator/console/', '').replace(/\/$/, '') as ConsoleCapability,
);

describe('who may use the console', () => {
  it('refuses a signed-out browser, a person who is not an operator, and an operator without a fresh step-up, changing nothing', async () => {
    const person = server.browser();
    const { userId } = await signInBySms(server, person);
    await fresh();
    expect(CAPABILITIES).toHaveLength(14);
    for (const capability of CAPABILITIES) {
      const signedOut = await call(server.browser(), capability, userId);
      expect([capability, signedOut.body.data?.error_code]).toEqual([capability, ErrorCode.notLoggedIn]);
      const notOperator = await call(person, capability, userId);
      expect([capability, notOperator.body.data?.error_code]).toEqual([capability, ErrorCode.notAnOperator]);
    }
    await stale(operatorId);
    for (const capability of CAPABILITIES) {
      const answer = await call(operator, capability, userId);
      expect([capability, answer.body.data?.error_code]).toEqual([capability, ErrorCode.stepUpRequired]);
    }
    // Nothing happened to the person: still signed in, not frozen.
    expect(await isSignedIn(person)).toBe(true);
    expect(await isFrozen(userId)).toBe(false);
  });

  it('refuses a page on another origin its CSRF-less change (the token is asked as on every page route)', async () => {
    const { userId } = await signInBySms(server, server.browser());
    await fresh();
    operator.sendCsrf = false;
    try {
      const forged = await post(operator, 'users/freeze', { id: userId });
      expect(forged.status).toBe(403);
    } finally {
      operator.sendCsrf = true;
    }
    expect(await isFrozen(userId)).toBe(false);
  });
});

describe('an operator with a fresh step-up', () => {
  it('finds a person, reads the detail, ends their sessions and sees it in the audit log with the operator as actor', async () => {
    const person = server.browser();
    const { userId, mobile } = await signInBySms(server, person);
    await fresh();

    const found = await get(operator, 'users/list', { query: mobile });
    expect(found.body.message).toBe('success');
    expect(found.body.data.users.map((u: { id: string }) => u.id)).toEqual([userId]);
    expect((await get(operator, 'users/list', { query: userId })).body.data.users[0].mobile).toBe(mobile);

    const detail = await get(operator, 'users/get', { id: userId });
    expect(detail.body.data).toMatchObject({ id: userId, mobile, frozen: false });
    const overview = await get(operator, 'users/overview', { id: userId });
    expect(overview.body.data.factors).toEqual({ totp: false, recovery_codes: 0, passkeys: 0 });
    expect(overview.body.data.organisations).toEqual([]);
    const sessions = await get(operator, 'users/sessions', { id: userId });
    expect(sessions.body.data.sessions).toHaveLength(1);
    expect((await get(operator, 'users/linked_accounts', { id: userId })).body.data.linked_accounts).toEqual(
      [],
    );

    const revoked = await post(operator, 'users/revoke_sessions', { id: userId });
    expect(revoked.body.data).toEqual({ revoked: 1 });
    expect(await isSignedIn(person)).toBe(false);

    // The audit log is written from the outbox, a moment after the change.
    const trail = async () =>
      (await get(operator, 'audit/list', { user: userId, type: 'account.' })).body.data.events as {
        type: string;
        actor: Record<string, string>;
      }[];
    await vi.waitFor(
      async () => expect((await trail()).map((e) => e.type)).toContain('account.sessions_revoked'),
      { timeout: 60_000, interval: 200 },
    );
    const events = await trail();
    expect(events.find((e) => e.type === 'account.sessions_revoked')).toMatchObject({
      actor: { kind: 'person', userId: operatorId },
    });
    // Every look at the person's data left a trail naming the operator.
    expect(events.filter((e) => e.type === 'account.viewed').length).toBe(4);
  });

  it('bans and unbans (the banned person is signed out and cannot sign in), resets factors, and never bans an operator', async () => {
    const person = server.browser();
    const { userId, mobile } = await signInBySms(server, person);
    await fresh();
    expect((await post(operator, 'users/freeze', { id: userId })).body.data).toEqual({
      id: userId,
      frozen: true,
    });
    expect(await isSignedIn(person)).toBe(false);
    const again = server.browser();
    await expect(signInBySms(server, again, mobile)).rejects.toThrow();
    expect((await post(operator, 'users/unfreeze', { id: userId })).body.data).toEqual({
      id: userId,
      frozen: false,
    });
    // Unbanned, the person signs in again on their own device.
    await signInBySms(server, person, mobile);

    const reset = await post(operator, 'users/reset_factors', { id: userId });
    expect(reset.body.data).toEqual({ totp: false, recovery_codes: 0, passkeys: 0 });

    const other = await post(operator, 'users/freeze', { id: otherOperatorId });
    expect(other.body.data.error_code).toBe(ErrorCode.insufficientScope);
    const missing = await get(operator, 'users/get', { id: 'no-such-user' });
    expect(missing.body.data.error_code).toBe(ErrorCode.accountNotFound);
  });

  it('lists and reads organisations, freezes one (the audit log names the operator) and thaws it', async () => {
    const manager = server.browser();
    const { userId } = await signInBySms(server, manager);
    const created = await manager.post(aff.subjectCreateByMobile, {
      subject_name: 'Console Co',
      deputy_name: 'Boss',
    });
    const sid = created.body.data.sec_subject_uid as string;
    await fresh();

    const listed = await get(operator, 'organisations/list', { limit: '100' });
    expect(listed.body.data.organisations.map((o: { id: string }) => o.id)).toContain(sid);
    expect((await get(operator, 'organisations/get', { id: sid })).body.data).toMatchObject({
      id: sid,
      manager_user_id: userId,
      frozen: false,
    });
    expect((await get(operator, 'organisations/members', { id: sid })).body.data.members).toHaveLength(1);
    const overview = await get(operator, 'users/overview', { id: userId });
    expect(overview.body.data.organisations).toEqual([
      { id: sid, name: 'Console Co', member_name: 'Boss', manager: true, frozen: false },
    ]);

    expect((await post(operator, 'organisations/freeze', { id: sid, is_frozen: 1 })).body.data).toEqual({
      id: sid,
      frozen: true,
    });
    expect((await get(operator, 'organisations/get', { id: sid })).body.data.frozen).toBe(true);
    const trail = async () =>
      (await get(operator, 'audit/list', { organisation: sid, type: 'organisation.frozen' })).body.data
        .events;
    await vi.waitFor(async () => expect(await trail()).toHaveLength(1), { timeout: 60_000, interval: 200 });
    expect((await trail())[0]).toMatchObject({ actor: { kind: 'person', userId: operatorId } });
    expect((await post(operator, 'organisations/freeze', { id: sid, is_frozen: 0 })).body.data.frozen).toBe(
      false,
    );

    const unknown = await post(operator, 'organisations/freeze', { id: 'nope', is_frozen: 1 });
    expect(unknown.body.data.error_code).toBe(1601); // SUBJECT_NOT_FOUND
    const bad = await post(operator, 'organisations/freeze', { id: sid, is_frozen: 7 });
    expect(bad.status).toBe(400);
  });

  it('pages the audit log with a cursor and refuses a bad one with a 4xx', async () => {
    await fresh();
    const first = await get(operator, 'audit/list', { limit: '2' });
    expect(first.body.data.events).toHaveLength(2);
    const next = await get(operator, 'audit/list', { limit: '2', cursor: first.body.data.next_cursor });
    expect(next.body.data.events[0].id).not.toBe(first.body.data.events[0].id);
    const bad = await get(operator, 'audit/list', { cursor: 'not-a-cursor' });
    expect(bad.status).toBe(400);
  });
});
