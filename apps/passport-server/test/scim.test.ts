import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAccountData } from '../src/domain/cancellation/cancellation';
import { affiliatePaths as aff, OrganisationErrorCode } from '../src/protocol';
import { SCIM_CALLS } from '../src/routes/scim/index';
import { signInBySms } from './support/flows';
import { startServer, type TestServer } from './support/server';

/**
 * SCIM 2.0 provisioning (docs/scim.md) as Okta and Microsoft Entra ID drive it, written out from their
 * published integration guides: the organisation's manager verifies its domain (through a real DNS
 * server on loopback) and makes a key with the `scim` scope; the identity provider then creates,
 * finds, deactivates, replaces and deletes Users and pushes Groups (roles) and their members.
 */

const records = new Map<string, string[]>();
const dnsServer = dns2.createServer({
  udp: true,
  handle(request, send) {
    const response = dns2.Packet.createResponseFromRequest(request);
    const name = request.questions[0]?.name.toLowerCase() ?? '';
    for (const data of records.get(name) ?? [])
      response.answers.push({
        name,
        type: dns2.Packet.TYPE.TXT,
        class: dns2.Packet.CLASS.IN,
        ttl: 1,
        data: [data],
      } as (typeof response.answers)[number]);
    send(response);
  },
});

let server: TestServer;
beforeAll(async () => {
  const addresses = await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = addresses.udp as AddressInfo;
  server = await startServer({ dnsResolver: [`127.0.0.1:${port}`] }, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => {
  await server?.close();
  await dnsServer.close();
});

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** An organisation with a verified domain and a SCIM key, as its manager sets it up. */
async function organisation() {
  const browser = server.browser();
  const { userId } = await signInBySms(server, browser);
  const created = await browser.post(aff.subjectCreateByMobile, {
    subject_name: 'Acme',
    deputy_name: 'Boss',
  });
  expect(created.body.message, 'fixture: an organisation').toBe('success');
  const sid = created.body.data.sec_subject_uid as string;
  const domain = `d${randomBytes(4).toString('hex')}.example.com`;
  const added = await browser.post(aff.domainAdd, { subject_uid: sid, domain });
  expect(added.body.message, 'fixture: a domain').toBe('success');
  records.set(added.body.data.record_name, [added.body.data.record_value]);
  const verified = await browser.post(aff.domainVerify, { subject_uid: sid, domain });
  expect(verified.body.message, 'fixture: verified').toBe('success');
  await server.app.db.updateTable('sessions').set({ verified_at: Date.now() }).execute();
  const key = await browser.post(aff.apiKeyCreate, { subject_uid: sid, name: 'okta', scopes: 'scim' });
  expect(key.body.message, JSON.stringify(key.body)).toBe('success');
  return { browser, userId, sid, domain, token: key.body.data.key as string };
}
type Org = Awaited<ReturnType<typeof organisation>>;

/** A SCIM request as the identity provider sends it: bearer token, application/scim+json. */
async function scim(
  org: Pick<Org, 'token'>,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await server.app.inject({
    method: method as 'GET',
    url: `/scim/v2${url}`,
    headers: {
      authorization: `Bearer ${org.token}`,
      accept: 'application/scim+json',
      ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    // biome-ignore lint/suspicious/noExplicitAny: SCIM answers are asserted field by field
    body: response.body ? (JSON.parse(response.body) as Record<string, any>) : null,
  };
}

const member = (org: Org, userId: string) =>
  server.app.db
    .selectFrom('deputies')
    .selectAll()
    .where('subject_id', '=', org.sid)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** The User body Okta's SCIM 2.0 guide sends on create. */
const oktaUser = (email: string) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Ada Lovelace',
  locale: 'en-US',
  externalId: '00ujl29u0le5T6Aj10h7',
  groups: [],
  password: 'never-stored-1A!',
  active: true,
});

describe('Okta', () => {
  it('finds by userName, creates, deactivates with a value object, reactivates, replaces and deletes', async () => {
    const org = await organisation();
    const email = `ada@${org.domain}`;
    // Okta looks the user up first: nothing there yet.
    const none = await scim(
      org,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`,
    );
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim(org, 'POST', '/Users', oktaUser(email));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(created.body).toMatchObject({ userName: email, active: true, externalId: '00ujl29u0le5T6Aj10h7' });
    expect(created.body?.password).toBeUndefined();
    expect(created.headers.location).toBe(created.body?.meta.location);
    const id = created.body?.id as string;
    const account = await server.app.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toBeNull();
    expect(await member(org, account.id)).toMatchObject({ is_frozen: 0, deputy_name: 'Ada Lovelace' });
    // The person's copy of their data holds what the identity provider sent.
    const exported = await exportAccountData(server.app.db, account, Date.now());
    expect(exported.provisioned).toEqual([
      expect.objectContaining({
        organisation_id: org.sid,
        user_name: email,
        external_id: '00ujl29u0le5T6Aj10h7',
        active: true,
        attributes: expect.objectContaining({ name: expect.objectContaining({ givenName: 'Ada' }) }),
      }),
    ]);

    // Case does not make another userName.
    const found = await scim(
      org,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`,
    );
    expect(found.body?.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
    const again = await scim(org, 'POST', '/Users', oktaUser(email));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });

    // A session acting as the member in the organisation ends when Okta deactivates them.
    const deputy = await member(org, account.id);
    await server.app.db
      .insertInto('sessions')
      .values({
        token_hash: randomBytes(32).toString('hex'),
        user_id: account.id,
        deputy_id: deputy!.id,
        created_at: Date.now(),
        last_seen_at: Date.now(),
        expires_at: Date.now() + 3_600_000,
        absolute_expires_at: Date.now() + 3_600_000,
      } as never)
      .execute();
    const deactivated = await scim(org, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
    expect(deactivated.body?.active).toBe(false);
    expect(await member(org, account.id)).toMatchObject({ is_frozen: 1 });
    const left = await server.app.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('deputy_id', '=', deputy!.id)
      .execute();
    expect(left).toEqual([]);

    const reactivated = await scim(org, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(reactivated.body?.active).toBe(true);
    expect(await member(org, account.id)).toMatchObject({ is_frozen: 0 });

    // Okta's profile push is a PUT of the whole User.
    const replaced = await scim(org, 'PUT', `/Users/${id}`, {
      ...oktaUser(email),
      id,
      name: { givenName: 'Augusta', familyName: 'King' },
      displayName: 'Augusta King',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: { givenName: 'Augusta', familyName: 'King' } });
    expect(replaced.body?.meta.version).not.toBe(created.body?.meta.version);
    expect(await member(org, account.id)).toMatchObject({ deputy_name: 'Augusta King' });
    expect(replaced.headers.etag).toBe(replaced.body?.meta.version);
    // The manager freezes the member in the console: a profile push (active unchanged) leaves it so.
    const frozenHere = await org.browser.post(aff.deputyFreeze, {
      sec_subject_uid: org.sid,
      user_identity_id: deputy!.id,
      is_frozen: 1,
    });
    expect(frozenHere.body.message, JSON.stringify(frozenHere.body)).toBe('success');
    const pushed = await scim(org, 'PUT', `/Users/${id}`, {
      ...oktaUser(email),
      displayName: 'Augusta King',
    });
    expect(pushed.status).toBe(200);
    expect(await member(org, account.id)).toMatchObject({ is_frozen: 1 });
    await org.browser.post(aff.deputyFreeze, {
      sec_subject_uid: org.sid,
      user_identity_id: deputy!.id,
      is_frozen: 0,
    });
    // A write naming a version the User no longer has changes nothing (RFC 7644 §3.14).
    const stale = await scim(
      org,
      'PATCH',
      `/Users/${id}`,
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Stale' }] },
      { 'if-match': created.body?.meta.version },
    );
    expect(stale).toMatchObject({ status: 412, body: { schemas: [ERROR], status: '412' } });
    const current = await scim(
      org,
      'PATCH',
      `/Users/${id}`,
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Augusta King' }] },
      { 'if-match': pushed.body?.meta.version },
    );
    expect(current.status).toBe(200);

    const deleted = await scim(org, 'DELETE', `/Users/${id}`);
    expect(deleted.status).toBe(204);
    expect(await member(org, account.id)).toBeUndefined();
    expect((await scim(org, 'GET', `/Users/${id}`)).status).toBe(404);
    // The account stays the person's.
    expect(
      await server.app.db.selectFrom('users').select('id').where('id', '=', account.id).executeTakeFirst(),
    ).toBeDefined();

    const events = await server.app.db
      .selectFrom('events')
      .select('type')
      .where('stream', '=', `subject:${org.sid}`)
      .execute();
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'organisation.scim_user.provisioned',
        'organisation.member.frozen',
        'organisation.member.thawed',
        'organisation.scim_user.updated',
        'organisation.member.removed',
        'organisation.scim_user.deprovisioned',
      ]),
    );
  });

  it('applies a removal and an addition sent at once, neither undoing the other', async () => {
    const org = await organisation();
    const [x, y, z] = await Promise.all(
      ['ada', 'alan', 'grace'].map(
        async (n) => (await scim(org, 'POST', '/Users', oktaUser(`${n}@${org.domain}`))).body?.id as string,
      ),
    );
    const start = { schemas: [GROUP], displayName: 'Race', members: [{ value: x }, { value: y }] };
    const group = await scim(org, 'POST', '/Groups', start);
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const gid = group.body?.id as string;
    const membersOf = async () =>
      (await scim(org, 'GET', `/Groups/${gid}`)).body?.members.map((m: { value: string }) => m.value).sort();
    // On PostgreSQL each PATCH read the members before the other committed and wrote its whole list:
    // the removed member came back. A few rounds, since which one reads first is up to the pool.
    for (let round = 0; round < 4; round++) {
      const [removed, added] = await Promise.all([
        scim(org, 'PATCH', `/Groups/${gid}`, {
          schemas: [PATCH],
          Operations: [{ op: 'remove', path: `members[value eq "${x}"]` }],
        }),
        scim(org, 'PATCH', `/Groups/${gid}`, {
          schemas: [PATCH],
          Operations: [{ op: 'add', path: 'members', value: [{ value: z }] }],
        }),
      ]);
      expect([removed.status, added.status]).toEqual([200, 200]);
      expect(await membersOf()).toEqual([y, z].sort());
      expect((await scim(org, 'PUT', `/Groups/${gid}`, start)).status).toBe(200);
    }
  });

  it('pushes a group, adds and removes members by path filter', async () => {
    const org = await organisation();
    const [a, b] = await Promise.all(
      ['grace', 'alan'].map(
        async (n) => (await scim(org, 'POST', '/Users', oktaUser(`${n}@${org.domain}`))).body?.id as string,
      ),
    );
    const group = await scim(org, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Engineering',
      members: [],
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const gid = group.body?.id as string;
    const added = await scim(org, 'PATCH', `/Groups/${gid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: a, display: 'grace' }, { value: b }] }],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body?.members.map((m: { value: string }) => m.value).sort()).toEqual([a, b].sort());
    // The role is the group: the user lists it.
    expect((await scim(org, 'GET', `/Users/${a}`)).body?.groups).toEqual([
      { value: gid, display: 'Engineering' },
    ]);
    const removed = await scim(org, 'PATCH', `/Groups/${gid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${a}"]` }],
    });
    expect(removed.body?.members.map((m: { value: string }) => m.value)).toEqual([b]);
    const renamed = await scim(org, 'PATCH', `/Groups/${gid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { id: gid, displayName: 'Platform' } }],
    });
    expect(renamed.body?.displayName).toBe('Platform');
    const byName = await scim(
      org,
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "platform"')}`,
    );
    expect(byName.body?.Resources.map((g: { id: string }) => g.id)).toEqual([gid]);
    // Someone not provisioned by this organisation is not a member it can name.
    const stranger = await scim(org, 'PATCH', `/Groups/${gid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: 'not-a-user' }] }],
    });
    expect(stranger).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    expect((await scim(org, 'DELETE', `/Groups/${gid}`)).status).toBe(204);
    expect((await scim(org, 'GET', `/Groups/${gid}`)).status).toBe(404);
    expect((await scim(org, 'GET', `/Users/${b}`)).body?.groups).toEqual([]);
  });
});

describe('Microsoft Entra ID', () => {
  it('creates, filters, deactivates with path active and "False", changes attributes, groups', async () => {
    const org = await organisation();
    const upn = `Test_User_${randomBytes(3).toString('hex')}@${org.domain}`;
    // Entra's provisioning checks with a random userName first.
    const probe = await scim(
      org,
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "ffa2b6c0-5fb7-4a2e-9b4c-0d5d2e0e8f1a"')}`,
    );
    expect(probe.body?.totalResults).toBe(0);
    const created = await scim(org, 'POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: upn,
      active: true,
      emails: [{ primary: true, type: 'work', value: upn }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body?.id as string;
    const byExternal = await scim(
      org,
      'GET',
      `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`,
    );
    expect(byExternal.body?.Resources.map((r: { id: string }) => r.id)).toEqual([id]);

    const changed = await scim(org, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: upn },
        {
          op: 'Replace',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'Eng',
        },
      ],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body?.name.familyName).toBe('updatedFamilyName');

    const disabled = await scim(org, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(disabled.body?.active).toBe(false);
    const account = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', upn.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(await member(org, account.id)).toMatchObject({ is_frozen: 1 });

    const group = await scim(org, 'POST', '/Groups', {
      schemas: [GROUP],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
    });
    expect(group.status).toBe(201);
    const gid = group.body?.id as string;
    const lookup = await scim(
      org,
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`,
    );
    expect(lookup.body?.Resources).toEqual([expect.objectContaining({ id: gid })]);
    expect(lookup.body?.Resources[0].members).toBeUndefined();
    const add = await scim(org, 'PATCH', `/Groups/${gid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }],
    });
    expect(add.body?.members).toEqual([{ value: id, display: upn }]);
    const remove = await scim(org, 'PATCH', `/Groups/${gid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: id }] }],
    });
    expect(remove.body?.members).toEqual([]);
    expect((await scim(org, 'DELETE', `/Users/${id}`)).status).toBe(204);
  });
});

describe('the key and the input', () => {
  it('keeps each organisation to its own Users, and refuses what SCIM refuses in its error schema', async () => {
    const [one, two] = [await organisation(), await organisation()];
    const created = await scim(one, 'POST', '/Users', oktaUser(`eve@${one.domain}`));
    const id = created.body?.id as string;
    expect((await scim(two, 'GET', `/Users/${id}`)).status).toBe(404);
    expect((await scim(two, 'GET', '/Users')).body?.totalResults).toBe(0);
    expect((await scim(two, 'DELETE', `/Users/${id}`)).status).toBe(404);
    // An address outside the organisation's verified domains is not its to provision.
    const outside = await scim(two, 'POST', '/Users', oktaUser(`eve@${one.domain}`));
    expect(outside).toMatchObject({ status: 400, body: { schemas: [ERROR], scimType: 'invalidValue' } });

    const noKey = await scim({ token: 'portico_sk_nothing' }, 'GET', '/Users');
    expect(noKey).toMatchObject({ status: 401, body: { schemas: [ERROR], status: '401' } });
    // Without a key, the body is not read: a malformed one answers 401 like any other.
    const unread = await server.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: 'Bearer portico_sk_nothing', 'content-type': 'application/scim+json' },
      payload: '{"not json',
    });
    expect(unread.statusCode).toBe(401);
    // Bounded like an organisation's other data: a User's attributes, the members one write names.
    const large = await scim(one, 'POST', '/Users', {
      ...oktaUser(`big@${one.domain}`),
      title: 'x'.repeat(20_000),
    });
    expect(large).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    const crowd = await scim(one, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Crowd',
      members: Array.from({ length: 1_001 }, (_, i) => ({ value: `u${i}` })),
    });
    expect(crowd).toMatchObject({ status: 400, body: { scimType: 'tooMany' } });
    const badFilter = await scim(one, 'GET', `/Users?filter=${encodeURIComponent('userName eq')}`);
    expect(badFilter).toMatchObject({ status: 400, body: { scimType: 'invalidFilter' } });
    const badPatch = await scim(one, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'move', path: 'x' }],
    });
    expect(badPatch).toMatchObject({ status: 400, body: { schemas: [ERROR] } });
    // Removing what is not there changes nothing (Okta repeats removals).
    const nothing = await scim(one, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: 'emails[type eq "home"]' }],
    });
    expect(nothing.body?.emails).toEqual(created.body?.emails);
    const notBool = await scim(one, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: 'maybe' }],
    });
    expect(notBool).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    // A path is never a way to an object's prototype (scim-patch would walk it).
    for (const path of ['__proto__.polluted', 'constructor.prototype.polluted', 'name.__proto__.polluted']) {
      const polluting = await scim(one, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'add', path, value: 'yes' }],
      });
      expect(polluting, path).toMatchObject({ status: 400, body: { scimType: 'invalidPath' } });
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    const protoBody = await server.app.inject({
      method: 'PATCH',
      url: `/scim/v2/Users/${id}`,
      headers: { authorization: `Bearer ${one.token}`, 'content-type': 'application/scim+json' },
      payload: `{"schemas":["${PATCH}"],"Operations":[{"op":"replace","value":{"__proto__":{"polluted":"yes"}}}]}`,
    });
    expect(protoBody.statusCode).toBe(400);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    const noName = await scim(one, 'POST', '/Users', { schemas: [USER] });
    expect(noName).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
    const notJson = await server.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${one.token}`, 'content-type': 'application/scim+json' },
      payload: '{"userName":',
    });
    expect(notJson.statusCode).toBe(400);
    // The manager's own membership is not the identity provider's to end.
    const bossEmail = `boss@${one.domain}`;
    await server.app.db.updateTable('users').set({ email: bossEmail }).where('id', '=', one.userId).execute();
    const boss = await scim(one, 'POST', '/Users', oktaUser(bossEmail));
    expect(boss.status, JSON.stringify(boss.body)).toBe(201);
    const frozenBoss = await scim(one, 'PATCH', `/Users/${boss.body?.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(frozenBoss).toMatchObject({ status: 400, body: { scimType: 'mutability' } });

    const config = await scim(one, 'GET', '/ServiceProviderConfig');
    expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true } });
    expect((await scim(one, 'GET', '/ResourceTypes')).body?.totalResults).toBe(2);
    expect((await scim(one, 'GET', '/Schemas')).body?.totalResults).toBe(2);
  });

  it('answers concurrent creates of one userName with one User and one 409 uniqueness', async () => {
    const org = await organisation();
    const email = `twin@${org.domain}`;
    const answers = await Promise.all([
      scim(org, 'POST', '/Users', oktaUser(email)),
      scim(org, 'POST', '/Users', oktaUser(email)),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.body).toMatchObject({ scimType: 'uniqueness' });
    const listed = await scim(org, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    expect(listed.body?.totalResults).toBe(1);
    // The same race for a person who has an account already: one membership, one User.
    const person = server.browser();
    const { userId } = await signInBySms(server, person);
    const known = `known@${org.domain}`;
    await server.app.db.updateTable('users').set({ email: known }).where('id', '=', userId).execute();
    const linked = await Promise.all([
      scim(org, 'POST', '/Users', oktaUser(known)),
      scim(org, 'POST', '/Users', { ...oktaUser(known), userName: `Known.Alias@${org.domain}` }),
    ]);
    expect(linked.map((a) => a.status).sort()).toEqual([201, 409]);
    // The person had the account before: one membership, waiting for them.
    expect(await member(org, userId)).toMatchObject({ is_frozen: 1 });
  });

  it('answers every call only to a key holding scim, and a scim key reaches nothing else', async () => {
    const org = await organisation();
    const reader = await org.browser.post(aff.apiKeyCreate, {
      subject_uid: org.sid,
      name: 'reader',
      scopes: 'organisations:read',
    });
    expect(reader.body.message, 'fixture: a key without scim').toBe('success');
    const withoutScim = { token: reader.body.data.key as string };
    const refused: string[] = [];
    for (const call of SCIM_CALLS) {
      const url = call.path.replace(':id', 'some-id');
      const body = ['POST', 'PUT', 'PATCH'].includes(call.method) ? {} : undefined;
      const answer = await scim(withoutScim, call.method, url, body);
      if (answer.status !== 403 || answer.body?.name !== 'INSUFFICIENT_SCOPE')
        refused.push(`${call.method} ${call.path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    expect(refused).toEqual([]);
    // The scim key is not a management key, not even for its own organisation.
    const management = await server.app.inject({
      method: 'GET',
      url: `/api/v1/organisations/${org.sid}/members`,
      headers: { authorization: `Bearer ${org.token}` },
    });
    expect(management.statusCode).toBe(403);
    // A frozen organisation provisions nobody.
    await server.app.db.updateTable('subjects').set({ is_frozen: 1 }).where('id', '=', org.sid).execute();
    const frozen = await scim(org, 'POST', '/Users', oktaUser(`late@${org.domain}`));
    expect(frozen.status).toBeGreaterThanOrEqual(400);
    expect(frozen.status).toBeLessThan(500);
    expect(frozen.body?.schemas).toEqual([ERROR]);
  });
});

describe('an account the person had before', () => {
  it('is a User at once, but its membership waits, frozen, until the person accepts or declines it', async () => {
    const org = await organisation();
    const person = server.browser();
    const { userId } = await signInBySms(server, person);
    const email = `had@${org.domain}`;
    await server.app.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
    const created = await scim(org, 'POST', '/Users', oktaUser(email));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body?.active).toBe(true);
    const id = created.body?.id as string;
    const waiting = await member(org, userId);
    expect(waiting).toMatchObject({ is_frozen: 1 });
    const provisioned = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('stream', '=', `subject:${org.sid}`)
      .where('type', '=', 'organisation.scim_user.provisioned')
      .where('target_user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(provisioned.data)).toMatchObject({ newAccount: false, awaitingAcceptance: true });

    // Neither the identity provider nor the manager can make it active for them.
    for (const active of [false, true])
      expect(
        (
          await scim(org, 'PATCH', `/Users/${id}`, {
            schemas: [PATCH],
            Operations: [{ op: 'replace', value: { active } }],
          })
        ).body?.active,
      ).toBe(active);
    expect(await member(org, userId)).toMatchObject({ is_frozen: 1 });
    const thawed = await org.browser.post(aff.deputyFreeze, {
      sec_subject_uid: org.sid,
      user_identity_id: waiting!.id,
      is_frozen: 0,
    });
    expect(thawed.body.data.error_code).toBe(OrganisationErrorCode.memberAwaitingAcceptance);
    // The person's identities and the organisation's member list both say it waits.
    const awaitingIn = async () => ({
      theirs: ((await person.get(aff.subjectLoginList)).body.data.items as Record<string, unknown>[]).find(
        (i) => i.sec_subject_uid === org.sid,
      )?.awaiting_acceptance,
      listed: (
        (await org.browser.get(`${aff.deputyList}?sec_subject_uid=${org.sid}`)).body.data.items as Record<
          string,
          unknown
        >[]
      ).find((d) => d.user_identity_id === waiting!.id)?.awaiting_acceptance,
    });
    expect(await awaitingIn()).toEqual({ theirs: true, listed: true });
    // Its groups apply meanwhile, and hold once accepted.
    const group = await scim(org, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Ops',
      members: [{ value: id }],
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);

    // Somebody else has nothing to accept there; the person accepts, once.
    const stranger = server.browser();
    await signInBySms(server, stranger);
    const notTheirs = await stranger.post(aff.membershipAccept, { subject_uid: org.sid });
    expect(notTheirs.body.data.error_code).toBe(OrganisationErrorCode.nothingToAccept);
    const accepted = await person.post(aff.membershipAccept, { subject_uid: org.sid });
    expect(accepted.body.data).toMatchObject({ accepted: true, user_identity_id: waiting!.id });
    expect(await member(org, userId)).toMatchObject({ is_frozen: 0 });
    expect(await awaitingIn()).toEqual({ theirs: false, listed: false });
    expect((await scim(org, 'GET', `/Users/${id}`)).body?.groups).toEqual([
      { value: group.body?.id, display: 'Ops' },
    ]);
    const again = await person.post(aff.membershipAccept, { subject_uid: org.sid });
    expect(again.body.data.error_code).toBe(OrganisationErrorCode.nothingToAccept);

    // Another organisation provisions the same person: they decline, and the membership goes.
    const other = await organisation();
    await server.app.db
      .updateTable('users')
      .set({ email: `had@${other.domain}` })
      .where('id', '=', userId)
      .execute();
    const second = await scim(other, 'POST', '/Users', oktaUser(`had@${other.domain}`));
    expect(second.status).toBe(201);
    const declined = await person.post(aff.membershipAccept, {
      subject_uid: other.sid,
      decline: true,
    } as never);
    expect(declined.body.data).toMatchObject({ accepted: false, user_identity_id: null });
    expect(await member(other, userId)).toBeUndefined();
    expect((await scim(other, 'GET', `/Users/${second.body?.id}`)).status).toBe(200);
    const types = (
      await server.app.db.selectFrom('events').select('type').where('target_user_id', '=', userId).execute()
    ).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['organisation.scim_user.accepted', 'organisation.scim_user.declined']),
    );
  });

  it('stays declined through the identity provider’s deactivations and reactivations', async () => {
    const org = await organisation();
    const person = server.browser();
    const { userId } = await signInBySms(server, person);
    const email = `flip@${org.domain}`;
    await server.app.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
    const created = await scim(org, 'POST', '/Users', oktaUser(email));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body?.id as string;
    const declined = await person.post(aff.membershipAccept, {
      subject_uid: org.sid,
      decline: true,
    } as never);
    expect(declined.body.data).toMatchObject({ accepted: false });

    // Okta deactivates and reactivates by PATCH, Entra by PUT as well: the User follows, the
    // membership the person declined is not made again, nor waits for them again.
    const flip = (active: boolean) =>
      scim(org, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', value: { active } }],
      });
    for (const active of [false, true, false, true]) {
      const patched = await flip(active);
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body?.active).toBe(active);
    }
    for (const active of [false, true])
      expect((await scim(org, 'PUT', `/Users/${id}`, { ...oktaUser(email), active })).status).toBe(200);
    expect(await member(org, userId)).toBeUndefined();
    const nothing = await person.post(aff.membershipAccept, { subject_uid: org.sid });
    expect(nothing.body.data.error_code).toBe(OrganisationErrorCode.nothingToAccept);
    const identities = (await person.get(aff.subjectLoginList)).body.data.items as {
      sec_subject_uid: string;
    }[];
    expect(identities.map((i) => i.sec_subject_uid)).not.toContain(org.sid);

    // The provider deletes the User and provisions the person anew: that asks them again.
    expect((await scim(org, 'DELETE', `/Users/${id}`)).status).toBe(204);
    const anew = await scim(org, 'POST', '/Users', oktaUser(email));
    expect(anew.status, JSON.stringify(anew.body)).toBe(201);
    expect(await member(org, userId)).toMatchObject({ is_frozen: 1 });
    const accepted = await person.post(aff.membershipAccept, { subject_uid: org.sid });
    expect(accepted.body.data).toMatchObject({ accepted: true });
    expect(await member(org, userId)).toMatchObject({ is_frozen: 0 });
  });
});
