import type { AddressInfo } from 'node:net';
import { createManagementClient, ManagementError } from '@portico/management';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { affiliatePaths as aff, paths } from '../src/protocol';
import { signInBySms } from './support/flows';
import { type Browser, freshMobile, startServer, type TestServer } from './support/server';

/**
 * The management API's organisations and audit events through the published client, and an
 * organisation's own keys: made by its manager, they see that organisation and nothing else.
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

const fresh = () => server.app.db.updateTable('sessions').set({ verified_at: Date.now() }).execute();

async function operatorClient(scopes: string[]) {
  await fresh();
  const answer = await operator.post(paths.web.operatorApiKeysCreate, {
    name: 'ops',
    scopes: scopes.join(' '),
  });
  expect(answer.body.message, 'fixture: a key').toBe('success');
  return createManagementClient({ baseUrl, apiKey: answer.body.data.key });
}

/** A fresh account managing a fresh organisation. */
async function manager(name: string) {
  const browser = server.browser();
  const { userId } = await signInBySms(server, browser);
  const created = await browser.post(aff.subjectCreateByMobile, { subject_name: name, deputy_name: 'Boss' });
  expect(created.body.message, 'fixture: an organisation').toBe('success');
  return { browser, userId, sid: created.body.data.sec_subject_uid as string };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ManagementError);
  return error as ManagementError;
};

describe('organisations through a deployment key', () => {
  it('lists and reads organisations, members, roles and invitations; revokes an invitation', async () => {
    const a = await manager('Harbour Works');
    const b = await manager('Quay Supplies');
    const invited = await a.browser.post(aff.inviteByMobile, {
      subject_uid: a.sid,
      contact: freshMobile(),
      deputy_name: 'Guest',
    });
    expect(invited.body.message, 'fixture: an invitation').toBe('success');
    const admin = await operatorClient(['organisations:read', 'organisations:write']);

    const page = await admin.organisations.list({ limit: 100 });
    expect(page.organisations.map((o) => o.id)).toEqual(expect.arrayContaining([a.sid, b.sid]));
    expect(await admin.organisations.get(a.sid)).toMatchObject({
      id: a.sid,
      name: 'Harbour Works',
      frozen: false,
      manager_user_id: a.userId,
      members: 1,
    });
    // Paged by cursor, each once.
    const one = await admin.organisations.list({ limit: 1 });
    expect(one.organisations).toHaveLength(1);
    const next = await admin.organisations.list({ limit: 1, cursor: one.next_cursor ?? '' });
    expect(next.organisations[0]?.id).not.toBe(one.organisations[0]?.id);

    const { members } = await admin.organisations.members(a.sid);
    expect(members).toEqual([expect.objectContaining({ user_id: a.userId, name: 'Boss', manager: true })]);
    expect(Array.isArray((await admin.organisations.roles(a.sid)).roles)).toBe(true);
    const { invitations } = await admin.organisations.invitations(a.sid);
    expect(invitations).toEqual([
      expect.objectContaining({ channel: 'mobile', name: 'Guest', state: 'pending' }),
    ]);
    const id = invitations[0]?.id ?? '';
    expect((await admin.organisations.revokeInvitation(a.sid, id)).state).toBe('cancelled');
    expect((await refusal(admin.organisations.revokeInvitation(a.sid, id))).status).toBe(400);
    // An invitation of A is not found under B.
    expect((await refusal(admin.organisations.revokeInvitation(b.sid, id))).status).toBe(404);
    expect((await refusal(admin.organisations.get('no-such-organisation'))).status).toBe(404);

    const reader = await operatorClient(['organisations:read']);
    const scope = await refusal(reader.organisations.revokeInvitation(a.sid, id));
    expect([scope.status, scope.errorName]).toEqual([403, 'INSUFFICIENT_SCOPE']);
  });
});

describe('an organisation’s own key', () => {
  it('is made by the manager after a step-up, and cannot see another organisation nor the deployment’s users', async () => {
    const a = await manager('North Pier');
    const b = await manager('South Pier');
    await fresh();
    const created = await a.browser.post(aff.apiKeyCreate, {
      subject_uid: a.sid,
      name: 'pier back end',
      scopes: 'organisations:read audit:read',
    });
    expect(created.body.message, JSON.stringify(created.body)).toBe('success');
    expect(created.body.data.key).toMatch(/^portico_sk_/);
    // Deployment-wide scopes are not an organisation's to give.
    const wide = await a.browser.post(aff.apiKeyCreate, {
      subject_uid: a.sid,
      name: 'x',
      scopes: 'users:read',
    });
    expect(wide.status).toBe(400);
    const listed = await a.browser.get(`${aff.apiKeyList}?subject_uid=${a.sid}`);
    expect(listed.body.data.keys.map((k: { id: string }) => k.id)).toEqual([created.body.data.id]);
    // B's manager sees none of A's keys, and the operators' listing holds deployment keys only.
    const other = await b.browser.get(`${aff.apiKeyList}?subject_uid=${b.sid}`);
    expect(other.body.data.keys).toEqual([]);
    const operatorList = await operator.get(paths.web.operatorApiKeysList);
    expect(operatorList.body.data.keys.map((k: { id: string }) => k.id)).not.toContain(created.body.data.id);

    const key = createManagementClient({ baseUrl, apiKey: created.body.data.key });
    expect((await key.organisations.list()).organisations.map((o) => o.id)).toEqual([a.sid]);
    expect((await key.organisations.get(a.sid)).id).toBe(a.sid);
    // Each call made when it is awaited: a list of calls already under way would leave the later ones'
    // refusals unhandled while the first is awaited.
    for (const call of [
      () => key.organisations.get(b.sid),
      () => key.organisations.members(b.sid),
      () => key.organisations.invitations(b.sid),
      () => key.audit.list({ organisation: b.sid }),
    ]) {
      const refused = await refusal(call());
      expect([refused.status, refused.errorName]).toEqual([404, 'SUBJECT_NOT_FOUND']);
    }
    const users = await refusal(key.users.list());
    expect([users.status, users.errorName]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const user = await refusal(key.users.get(a.userId));
    expect(user.status).toBe(403);

    // Its audit events are its organisation's only.
    await vi.waitFor(
      async () => {
        const page = await key.audit.list({ limit: 100 });
        expect(page.events.length).toBeGreaterThan(0);
        for (const event of page.events) expect(event.organisation_id).toBe(a.sid);
      },
      { timeout: 60_000, interval: 200 },
    );

    // Frozen by its manager, the organisation's key stops, reads included; thawed, it works again.
    await fresh();
    const frozen = await a.browser.post(aff.subjectFreeze, { sec_subject_uid: a.sid, is_frozen: 1 });
    expect(frozen.body.message, JSON.stringify(frozen.body)).toBe('success');
    for (const call of [() => key.organisations.get(a.sid), () => key.audit.list({ limit: 1 })]) {
      const refused = await refusal(call());
      expect([refused.status >= 400 && refused.status < 500, refused.errorName]).toEqual([
        true,
        'SUBJECT_FROZEN',
      ]);
    }
    await expect(
      (await operatorClient(['organisations:read'])).organisations.get(a.sid),
    ).resolves.toMatchObject({
      frozen: true,
    });
    await a.browser.post(aff.subjectFreeze, { sec_subject_uid: a.sid, is_frozen: 0 });
    expect((await key.organisations.get(a.sid)).id).toBe(a.sid);

    const revoked = await a.browser.post(aff.apiKeyRevoke, { subject_uid: a.sid, id: created.body.data.id });
    expect(revoked.body.message).toBe('success');
    expect((await refusal(key.organisations.list())).status).toBe(401);
  });
});

describe('audit events', () => {
  it('filter by type, person and time, and page by cursor, newest first', async () => {
    const auditor = await operatorClient(['audit:read', 'users:write']);
    const admin = await operatorClient(['users:write']);
    const started = Date.now();
    const created = await admin.users.create({ mobile: freshMobile() });
    await admin.users.freeze(created.id);
    await admin.users.unfreeze(created.id);
    const mine = () => auditor.audit.list({ user: created.id, since: started, limit: 10 });
    await vi.waitFor(async () => expect((await mine()).events).toHaveLength(4), {
      timeout: 60_000,
      interval: 200,
    });
    const { events } = await mine();
    // Freezing ends the sessions in the same change.
    expect(events.map((e) => e.type)).toEqual([
      'account.unfrozen',
      'account.sessions_revoked',
      'account.frozen',
      'account.created',
    ]);
    expect(events[0]?.actor).toMatchObject({ kind: 'apiKey' });
    const frozen = await auditor.audit.list({ user: created.id, type: 'account.frozen' });
    expect(frozen.events.map((e) => e.type)).toEqual(['account.frozen']);
    const prefix = await auditor.audit.list({ user: created.id, type: 'account.' });
    expect(prefix.events).toHaveLength(4);
    expect((await auditor.audit.list({ user: created.id, until: started })).events).toEqual([]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await auditor.audit.list({ user: created.id, limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.events.map((e) => e.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(events.map((e) => e.id));
    expect((await refusal(auditor.audit.list({ cursor: 'not-a-cursor' }))).status).toBe(400);
    expect((await refusal(admin.audit.list())).status).toBe(403);
  });
});
