import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  type AccountClient,
  accountInfo,
  cancelCheck,
  sendMobileCode,
  smsLogin,
  updateUserInfo,
} from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import SQLite from 'better-sqlite3';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeIdentity } from '../../src/flows/identity-sign-in';
import { sha256 } from '../../src/lib/crypto';
import {
  CodeType,
  defaultStatement,
  OrganisationErrorCode,
  type OrganisationErrorName,
  paths,
  permissionsOf,
} from '../../src/protocol';
import { JWKS_PATH } from '../../src/routes/app/jwks';
import { passCooldown } from '../support/flows';
import { snapshotState } from '../support/inventory';
import { rejection, type SdkBrowser, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { backend, freshMobile } from '../support/server';

/**
 * Organisations end to end through the real `@portico/affiliate-sdk` over the real account SDK and
 * server (issue 12): every call, isolation between subjects, privilege escalation, frozen subjects and
 * members, banned roles, and the one-manager rule under concurrency.
 */

const ISSUER = 'http://localhost:3000';

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

interface Person {
  browser: SdkBrowser;
  client: AccountClient;
  mobile: string;
  userId: string;
}

/** An account signed in by SMS code (sign-in-or-register; a fresh one by default), with its own browser. */
async function person(mobile = freshMobile()): Promise<Person> {
  const browser = server.sdkBrowser();
  const client = browser.client();
  await passCooldown();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  const account = await smsLogin<{ user_id: string }>(client, { mobile, code: await server.codeFor(mobile) });
  return { browser, client, mobile, userId: account.user_id };
}

/** A person managing a new subject. */
async function manager(name = 'Example Ltd') {
  const p = await person();
  const subject = await aff.createSubjectByMobile(p.client, {
    mobile: p.mobile,
    subject_name: name,
    deputy_name: 'Boss',
    base_infos: { city: 'Shenzhen' },
  });
  return { ...p, subject, sid: subject.sec_subject_uid };
}

/**
 * A new member of the manager's subject holding a new role with these permissions: invited by mobile,
 * accepted, and back to acting personally (accepting makes the new identity the session's).
 */
async function member(
  boss: Awaited<ReturnType<typeof manager>>,
  permissions: string[],
  roleKey = `r${Math.random().toString(36).slice(2, 8)}`,
) {
  const p = await person();
  await aff.createRole(boss.client, {
    subject_uid: boss.sid,
    role_key: roleKey,
    role_name: roleKey,
    permissions,
  });
  const invited = await aff.createUserWithRole(boss.client, {
    subject_uid: boss.sid,
    account: p.mobile,
    deputy_name: 'Member',
    role_key: roleKey,
  });
  await aff.acceptInvitation(p.client, { invite_ticket: invited.invite_ticket });
  await aff.switchMember(p.client, { to_sec_member_id: '0' });
  return { ...p, roleKey, identity: invited.deputy_identity_id };
}

/** The organisation error a call rejects with. */
async function refused(
  call: Promise<unknown>,
  name: OrganisationErrorName | 'notLoggedIn' | 'accountNotFound' | 'wrongCredentials',
) {
  const error = await rejection(call);
  const code =
    name === 'notLoggedIn'
      ? 1101
      : name === 'accountNotFound'
        ? 1104
        : name === 'wrongCredentials'
          ? 1102
          : OrganisationErrorCode[name];
  expect({ kind: error.kind, error_code: error.error_code }).toEqual({ kind: 'response', error_code: code });
  expect(error.description).not.toBe('');
  return error;
}

/** POST /GetUserToken through the client (CSRF header and all). */
const userToken = (client: AccountClient) =>
  client.request<{ token: string }>({ path: paths.app.GetUserToken, method: 'POST' });

describe('every affiliate call through the SDK', () => {
  it('creates a subject with its manager, reads, updates it and keeps real-name fields sealed at rest', async () => {
    const boss = await manager();
    expect(boss.subject).toMatchObject({
      subject_name: 'Example Ltd',
      base_infos: { city: 'Shenzhen' },
      is_frozen: 0,
    });
    const updated = await aff.updateSubject(boss.client, {
      sec_subject_uid: boss.sid,
      subject_name: '示例公司',
      detail_infos: { size: 10 },
      identity_card: '110101199003070011',
      real_name: '张三',
    });
    expect(updated).toMatchObject({
      subject_name: '示例公司',
      detail_infos: { size: 10 },
      has_real_name: true,
    });
    expect(await aff.subjectInfo(boss.client, { sec_subject_uid: boss.sid })).toEqual(updated);
    const row = await server.app.db
      .selectFrom('subjects')
      .selectAll()
      .where('id', '=', boss.sid)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('110101199003070011');
    expect(JSON.stringify(row)).not.toContain('张三');
    expect(server.app.organisations.realName.open(boss.sid, 'real_name', row.real_name_sealed!)).toBe('张三');

    const page = await aff.listSubjects(boss.client);
    expect(page).toMatchObject({ page: 1, page_size: 10, total: 1, has_more: false });
    expect(page.items[0]!.sec_subject_uid).toBe(boss.sid);
    const mine = await aff.listIdentities(boss.client);
    expect(mine.items).toEqual([
      expect.objectContaining({ sec_subject_uid: boss.sid, is_manager: true, deputy_name: 'Boss' }),
    ]);
  });

  it('refuses base_infos that are not a JSON object or are too large, and an identifier that is not the caller', async () => {
    const p = await person();
    const base = { mobile: p.mobile, subject_name: 'X', deputy_name: 'Y' };
    await refused(
      aff.createSubjectByMobile(p.client, { ...base, base_infos: '[1,2]' as never }),
      'infosInvalid',
    );
    await refused(
      aff.createSubjectByMobile(p.client, { ...base, base_infos: { big: 'x'.repeat(9000) } }),
      'infosInvalid',
    );
    await refused(
      aff.createSubjectByMobile(p.client, { ...base, mobile: freshMobile() }),
      'identifierMismatch',
    );
    await refused(aff.createSubjectByMobile(server.sdkBrowser().client(), base), 'notLoggedIn');
    expect((await aff.listSubjects(p.client)).total).toBe(0);
    // Without an identifier the signed-in account is the manager (a page knows only the masked number).
    const made = await aff.createSubjectByEmail(p.client, { subject_name: 'Mine', deputy_name: 'Me' });
    expect((await aff.listIdentities(p.client)).items).toEqual([
      expect.objectContaining({
        sec_subject_uid: made.sec_subject_uid,
        sec_user_id: p.userId,
        is_manager: true,
      }),
    ]);
  });

  it('serves the resource list, roles, user roles, permissions and their explanation', async () => {
    const boss = await manager();
    const resources = await aff.resourceList(boss.client, { subject_uid: boss.sid, page_size: 2 });
    expect(resources).toMatchObject({
      page: 1,
      page_size: 2,
      total: Object.keys(defaultStatement).length,
      has_more: true,
    });
    expect(resources.items[0]).toEqual({ resource: 'subject', actions: ['read', 'update'] });

    const viewer = await member(boss, ['member:read', 'role:read'], 'viewer');
    const role = await aff.roleInfo(boss.client, { subject_uid: boss.sid, role_key: 'viewer' });
    expect(role).toMatchObject({
      role_key: 'viewer',
      permissions: ['member:read', 'role:read'],
      is_banned: 0,
    });
    await aff.updateRole(boss.client, {
      subject_uid: boss.sid,
      role_key: 'viewer',
      role_name: 'Viewers',
      description: 'read only',
    });
    await aff.createRole(boss.client, {
      subject_uid: boss.sid,
      role_key: 'editor',
      role_name: 'Editor',
      permissions: ['member:update', 'member:read'],
    });
    expect(
      (await aff.listRoles(boss.client, { subject_uid: boss.sid })).items.map((r) => r.role_key),
    ).toEqual(['editor', 'viewer']);

    expect(
      await aff.addUserRoles(boss.client, {
        subject_uid: boss.sid,
        role_key: 'editor',
        sec_user_identity_ids: [viewer.identity],
      }),
    ).toEqual({ added: 1 });
    const links = await aff.listUserRoles(boss.client, { subject_uid: boss.sid, role_key: 'editor' });
    expect(links.items).toEqual([
      { user_identity_id: viewer.identity, deputy_name: 'Member', role_key: 'editor', role_name: 'Editor' },
    ]);
    expect((await aff.allUserRoles(boss.client, { subject_uid: boss.sid })).total).toBe(2);

    const perms = await aff.userPermissions(viewer.client, { subject_uid: boss.sid });
    expect(perms).toEqual({
      user_identity_id: viewer.identity,
      is_manager: false,
      permissions: ['member:read', 'member:update', 'role:read'],
    });
    const why = await aff.explainPermission(boss.client, {
      subject_uid: boss.sid,
      identity_id: viewer.identity,
      permission: 'member:read',
    });
    expect(why).toMatchObject({ granted: true, by_manager: false });
    expect(why.roles.map((r) => r.role_key)).toEqual(['editor', 'viewer']);
    expect(why.roles[0]!.permissions).toEqual(['member:update', 'member:read']);
    const bossWhy = await aff.explainPermission(boss.client, {
      subject_uid: boss.sid,
      permission: 'role:ban',
    });
    expect(bossWhy).toMatchObject({ granted: true, by_manager: true, roles: [] });

    expect(
      await aff.deleteUserRoles(boss.client, {
        subject_uid: boss.sid,
        role_key: 'editor',
        sec_user_identity_ids: [viewer.identity],
      }),
    ).toEqual({ removed: 1 });
    expect((await aff.userPermissions(viewer.client, { subject_uid: boss.sid })).permissions).toEqual([
      'member:read',
      'role:read',
    ]);
    await refused(
      aff.createRole(boss.client, {
        subject_uid: boss.sid,
        role_key: 'viewer',
        role_name: 'again',
        permissions: [],
      }),
      'roleExists',
    );
    await refused(
      aff.createRole(boss.client, {
        subject_uid: boss.sid,
        role_key: 'x',
        role_name: 'x',
        permissions: ['nuke:all'],
      }),
      'unknownPermission',
    );
    await refused(
      aff.createRole(boss.client, {
        subject_uid: boss.sid,
        role_key: 'manager',
        role_name: 'x',
        permissions: [],
      }),
      'roleKeyReserved',
    );
  });

  it('lists, renames, freezes and removes members; the manager cannot be frozen or removed', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read']);
    const list = await aff.listDeputies(boss.client, { sec_subject_uid: boss.sid });
    expect(list.items.map((d) => [d.is_manager, d.deputy_name])).toEqual([
      [true, 'Boss'],
      [false, 'Member'],
    ]);
    const bossIdentity = list.items[0]!.user_identity_id;
    // One's own name without member:update.
    expect(
      (
        await aff.updateDeputy(m.client, {
          sec_subject_uid: boss.sid,
          user_identity_id: m.identity,
          deputy_name: 'Me',
        })
      ).deputy_name,
    ).toBe('Me');
    await refused(
      aff.updateDeputy(m.client, {
        sec_subject_uid: boss.sid,
        user_identity_id: bossIdentity,
        deputy_name: 'Pwned',
      }),
      'permissionDenied',
    );
    await refused(
      aff.freezeDeputy(boss.client, {
        sec_subject_uid: boss.sid,
        user_identity_id: bossIdentity,
        is_frozen: 1,
      }),
      'managerProtected',
    );
    await refused(
      aff.deleteDeputy(boss.client, { sec_subject_uid: boss.sid, user_identity_id: bossIdentity }),
      'managerProtected',
    );
    // A second invitation to a member is issued, but accepting it makes no second identity.
    const twice = await aff.createUserWithRole(boss.client, {
      subject_uid: boss.sid,
      account: m.mobile,
      deputy_name: 'Twice',
      role_key: m.roleKey,
    });
    await refused(aff.acceptInvitation(m.client, { invite_ticket: twice.invite_ticket }), 'alreadyMember');
    expect(
      await aff.deleteDeputy(boss.client, { sec_subject_uid: boss.sid, user_identity_id: m.identity }),
    ).toEqual({ deleted: true });
    await refused(aff.listDeputies(m.client, { sec_subject_uid: boss.sid }), 'subjectNotFound');
  });
});

describe('signing in as an identity', () => {
  it('lists identities, signs in as one with a new session token, carries it in account/info and the product token, and switches back', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read', 'role:read']);
    const list = await aff.subjectLoginList(m.client);
    expect(list.items.map((i) => [i.user_identity_id, i.active])).toEqual([
      ['0', true],
      [m.identity, false],
    ]);
    const before = m.browser.session;
    const signedIn = await aff.subjectLogin(m.client, {
      login_subject_uid: boss.sid,
      user_identity_id: m.identity,
    });
    expect(m.browser.session).not.toBe(before);
    expect(signedIn).toMatchObject({ user_id: m.userId });
    const info = await accountInfo(m.client);
    expect(info.org).toEqual({
      sec_subject_uid: boss.sid,
      subject_name: 'Example Ltd',
      user_identity_id: m.identity,
      deputy_name: 'Member',
      is_manager: false,
      is_frozen: 0,
      subject_is_frozen: 0,
      permissions: ['member:read', 'role:read'],
    });
    // The old session token is dead.
    const stale = await server.app.inject({
      method: 'GET',
      url: paths.web.accountInfo,
      cookies: { sessionid: before! },
    });
    expect(stale.json().data.error_code).toBe(1101);

    // A product back end authorises with jose alone.
    const { token } = await userToken(m.client);
    const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${server.baseUrl}${JWKS_PATH}`)), {
      issuer: ISSUER,
    });
    expect(payload.sub).toBe(m.userId);
    expect(payload.org).toEqual({
      subject_uid: boss.sid,
      identity_id: m.identity,
      is_manager: false,
      permissions: ['member:read', 'role:read'],
    });

    const next = m.browser.session;
    await aff.switchMember(m.client, { to_sec_member_id: '0' });
    expect(m.browser.session).not.toBe(next);
    expect((await accountInfo(m.client)).org).toBeUndefined();
    const personal = await jwtVerify(
      (await userToken(m.client)).token,
      createRemoteJWKSet(new URL(`${server.baseUrl}${JWKS_PATH}`)),
      { issuer: ISSUER },
    );
    expect(personal.payload.org).toBeUndefined();
    await aff.switchMember(m.client, { to_sec_member_id: m.identity });
    expect((await accountInfo(m.client)).org?.user_identity_id).toBe(m.identity);
  });

  it('is a sign-in by the session: the switch and its account.signed_in commit together, the step-up time kept', async () => {
    const boss = await manager();
    const m = await member(boss, []);
    const sessionRow = (token: string | undefined) =>
      server.app.db
        .selectFrom('sessions')
        .select(['verified_at', 'deputy_id'])
        .where('token_hash', '=', sha256(token ?? ''))
        .executeTakeFirst();
    const signIns = () =>
      server.app.db
        .selectFrom('events')
        .select(['data', 'actor'])
        .where('stream', '=', `user:${m.userId}`)
        .where('type', '=', 'account.signed_in')
        .orderBy('id')
        .execute();
    const verifiedBefore = (await sessionRow(m.browser.session))?.verified_at;
    expect(verifiedBefore).toBeTypeOf('number');
    const before = (await signIns()).length;
    await aff.subjectLogin(m.client, { login_subject_uid: boss.sid, user_identity_id: m.identity });
    expect(await sessionRow(m.browser.session)).toEqual({
      verified_at: verifiedBefore,
      deputy_id: m.identity,
    });
    await aff.switchMember(m.client, { to_sec_member_id: '0' });
    expect(await sessionRow(m.browser.session)).toEqual({ verified_at: verifiedBefore, deputy_id: null });
    const recorded = (await signIns()).slice(before);
    expect(recorded.map((row) => JSON.parse(String(row.data)))).toEqual([
      { method: 'session', newDevice: false },
      { method: 'session', newDevice: false },
    ]);
    // A refused switch signs nobody in and records nothing.
    await refused(aff.switchMember(m.client, { to_sec_member_id: randomUUID() }), 'subjectNotFound');
    expect((await signIns()).length).toBe(before + 2);
  });

  it('refuses another person’s identity, and one of another subject, as it refuses one that does not exist', async () => {
    const boss = await manager();
    const m = await member(boss, []);
    const other = await manager('Other');
    const bossIdentity = (await aff.subjectLoginList(boss.client)).items[1]!.user_identity_id;
    await refused(
      aff.subjectLogin(m.client, { login_subject_uid: boss.sid, user_identity_id: bossIdentity }),
      'subjectNotFound',
    );
    await refused(
      aff.subjectLogin(m.client, { login_subject_uid: other.sid, user_identity_id: m.identity }),
      'subjectNotFound',
    );
    await refused(aff.switchMember(m.client, { to_sec_member_id: bossIdentity }), 'subjectNotFound');
    await refused(aff.switchMember(m.client, { to_sec_member_id: 'no-such-identity' }), 'subjectNotFound');
    expect((await accountInfo(m.client)).org).toBeUndefined();
  });

  it('resets an organisation member’s password by code (identifier, code, password)', async () => {
    const boss = await manager();
    const client = server.sdkBrowser().client();
    await passCooldown();
    await sendMobileCode(client, { mobile: boss.mobile, type: CodeType.resetPassword });
    const code = await server.codeFor(boss.mobile);
    const wrong = await rejection(
      aff.orgForgotPassword(client, {
        identifier: boss.mobile,
        code: code === '000000' ? '111111' : '000000',
        password: 'violet tugboat on a quiet river',
      }),
    );
    expect(wrong.error_code).toBe(1301);
    const done = await aff.orgForgotPassword(client, {
      identifier: boss.mobile,
      code,
      password: 'violet tugboat on a quiet river',
    });
    expect(done).toEqual({ user_id: boss.userId, signed_in: false });
    // Every session of the account died with the reset.
    await refused(aff.listSubjects(boss.client), 'notLoggedIn');
  });
});

describe('frozen subjects and members, banned roles', () => {
  it('a frozen member cannot act or sign in as the identity; need_frozen_user=1 answers the frozen state; its product token is refused', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read']);
    await aff.subjectLogin(m.client, { login_subject_uid: boss.sid, user_identity_id: m.identity });
    await aff.freezeDeputy(boss.client, {
      sec_subject_uid: boss.sid,
      user_identity_id: m.identity,
      is_frozen: 1,
    });
    await refused(aff.listDeputies(m.client, { sec_subject_uid: boss.sid }), 'memberFrozen');
    await refused(userToken(m.client), 'memberFrozen');
    expect((await accountInfo(m.client)).org).toMatchObject({ is_frozen: 1, permissions: [] });
    await aff.switchMember(m.client, { to_sec_member_id: '0' });
    await refused(
      aff.subjectLogin(m.client, { login_subject_uid: boss.sid, user_identity_id: m.identity }),
      'memberFrozen',
    );
    const answer = await aff.subjectLogin<{ frozen_identity: { is_frozen: number } }>(m.client, {
      login_subject_uid: boss.sid,
      user_identity_id: m.identity,
      need_frozen_user: 1,
    });
    expect(answer.frozen_identity).toMatchObject({ is_frozen: 1, user_identity_id: m.identity });
    expect((await accountInfo(m.client)).org).toBeUndefined();
    await aff.freezeDeputy(boss.client, {
      sec_subject_uid: boss.sid,
      user_identity_id: m.identity,
      is_frozen: 0,
    });
    expect((await aff.listDeputies(m.client, { sec_subject_uid: boss.sid })).total).toBe(2);
  });

  it('a frozen subject refuses every member but lets its manager thaw it', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read']);
    await aff.freezeSubject(boss.client, { sec_subject_uid: boss.sid, is_frozen: 1 });
    await refused(aff.listDeputies(m.client, { sec_subject_uid: boss.sid }), 'subjectFrozen');
    await refused(aff.listDeputies(boss.client, { sec_subject_uid: boss.sid }), 'subjectFrozen');
    await refused(
      aff.subjectLogin(m.client, { login_subject_uid: boss.sid, user_identity_id: m.identity }),
      'subjectFrozen',
    );
    await refused(aff.freezeSubject(m.client, { sec_subject_uid: boss.sid, is_frozen: 0 }), 'subjectFrozen');
    expect((await aff.subjectInfo(boss.client, { sec_subject_uid: boss.sid })).is_frozen).toBe(1);
    await aff.freezeSubject(boss.client, { sec_subject_uid: boss.sid, is_frozen: 0 });
    expect((await aff.listDeputies(m.client, { sec_subject_uid: boss.sid })).total).toBe(2);
  });

  it('a banned role grants nothing and cannot be assigned until the ban is lifted', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read']);
    const other = await member(boss, []);
    await aff.banRole(boss.client, { subject_uid: boss.sid, role_key: m.roleKey });
    await refused(aff.listDeputies(m.client, { sec_subject_uid: boss.sid }), 'permissionDenied');
    expect((await aff.userPermissions(m.client, { subject_uid: boss.sid })).permissions).toEqual([]);
    const why = await aff.explainPermission<{ granted: boolean; roles: unknown[]; banned_roles: string[] }>(
      m.client,
      {
        subject_uid: boss.sid,
        permission: 'member:read',
      },
    );
    expect(why).toMatchObject({ granted: false, roles: [], banned_roles: [m.roleKey] });
    await refused(
      aff.addUserRoles(boss.client, {
        subject_uid: boss.sid,
        role_key: m.roleKey,
        sec_user_identity_ids: [other.identity],
      }),
      'roleBanned',
    );
    await aff.banRole(boss.client, { subject_uid: boss.sid, role_key: m.roleKey, is_banned: 0 });
    expect((await aff.listDeputies(m.client, { sec_subject_uid: boss.sid })).total).toBe(3);
  });
});

describe('privilege escalation', () => {
  it('a member with role:update cannot grant a permission it lacks, to any role', async () => {
    const boss = await manager();
    const m = await member(boss, ['role:update', 'role:read']);
    await refused(
      aff.updateRole(m.client, {
        subject_uid: boss.sid,
        role_key: m.roleKey,
        permissions: ['role:update', 'member:delete'],
      }),
      'grantExceedsOwn',
    );
    expect(
      (await aff.roleInfo(m.client, { subject_uid: boss.sid, role_key: m.roleKey })).permissions,
    ).toEqual(['role:update', 'role:read']);
    // Dropping to what it holds is fine.
    await aff.updateRole(m.client, {
      subject_uid: boss.sid,
      role_key: m.roleKey,
      permissions: ['role:update', 'role:read'],
    });
  });

  it('a member with role:assign cannot hand out a role holding more than it does, nor make itself manager', async () => {
    const boss = await manager();
    await aff.createRole(boss.client, {
      subject_uid: boss.sid,
      role_key: 'admin',
      role_name: 'Admin',
      permissions: permissionsOf(defaultStatement),
    });
    const m = await member(boss, ['role:assign', 'role:read']);
    await refused(
      aff.addUserRoles(m.client, {
        subject_uid: boss.sid,
        role_key: 'admin',
        sec_user_identity_ids: [m.identity],
      }),
      'grantExceedsOwn',
    );
    await refused(
      aff.addUserRoles(m.client, {
        subject_uid: boss.sid,
        role_key: 'manager',
        sec_user_identity_ids: [m.identity],
      }),
      'roleNotFound',
    );
    expect((await aff.userPermissions(m.client, { subject_uid: boss.sid })).is_manager).toBe(false);
    const managers = await server.app.db
      .selectFrom('deputies')
      .select('user_id')
      .where('subject_id', '=', boss.sid)
      .where('is_manager', '=', 1)
      .execute();
    expect(managers).toEqual([{ user_id: boss.userId }]);
  });

  it('ids in the body never stand for the caller', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read']);
    const bossIdentity = (await aff.listDeputies(m.client, { sec_subject_uid: boss.sid })).items[0]!
      .user_identity_id;
    // The manager's ids beside the request change nothing: the session's account acts.
    const spoof = {
      user_id: boss.userId,
      sec_user_id: boss.userId,
      user_identity_id: bossIdentity,
      identity_id: bossIdentity,
    };
    await refused(
      aff.createRole(m.client, {
        subject_uid: boss.sid,
        role_key: 'x',
        role_name: 'x',
        permissions: [],
        ...spoof,
      } as never),
      'permissionDenied',
    );
    await refused(
      aff.freezeSubject(m.client, { sec_subject_uid: boss.sid, is_frozen: 1, ...spoof } as never),
      'permissionDenied',
    );
    // Asking for another member's permissions needs member:read; asking with a foreign identity id is not found.
    const other = await manager('Other');
    const otherIdentity = (await aff.subjectLoginList(other.client)).items[1]!.user_identity_id;
    await refused(
      aff.userPermissions(m.client, { subject_uid: boss.sid, identity_id: otherIdentity }),
      'memberNotFound',
    );
    await refused(
      aff.createSubjectByMobile(m.client, { mobile: boss.mobile, subject_name: 'S', deputy_name: 'D' }),
      'identifierMismatch',
    );
  });

  it('ids in a header never stand for the caller, and nothing changes', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read']);
    const bossIdentity = (await aff.listDeputies(m.client, { sec_subject_uid: boss.sid })).items[0]!
      .user_identity_id;
    const bossToken = (await userToken(boss.client)).token;
    // The manager's ids in every header a proxy or a framework reads a user or a tenant from, the same
    // names as cookies, and the manager's own product token as a bearer: the server reads none of them.
    const forged = {
      'x-user-id': boss.userId,
      'x-sec-user-id': boss.userId,
      'x-uid': boss.userId,
      'x-forwarded-user': boss.userId,
      'x-remote-user': boss.userId,
      'remote-user': boss.userId,
      'x-auth-request-user': boss.userId,
      'x-user-identity-id': bossIdentity,
      'x-identity-id': bossIdentity,
      'x-deputy-id': bossIdentity,
      'x-subject-uid': boss.sid,
      'x-sec-subject-uid': boss.sid,
      'x-organisation-id': boss.sid,
      'x-organization-id': boss.sid,
      'x-tenant-id': boss.sid,
      authorization: `Bearer ${bossToken}`,
    };
    const plant = (browser: SdkBrowser) => {
      browser.headers = { ...forged };
      for (const name of ['user_id', 'sec_user_id', 'uid', 'user_identity_id'])
        browser.cookies.set(name, {
          value: name === 'user_identity_id' ? bossIdentity : boss.userId,
          httpOnly: false,
        });
    };
    const who = async (client: AccountClient) => {
      const info = await accountInfo<{
        user_id: string;
        sec_user_id: string;
        screen_name: string;
        org?: unknown;
      }>(client);
      return {
        info: { user_id: info.user_id, sec_user_id: info.sec_user_id, name: info.screen_name, org: info.org },
        identities: (await aff.subjectLoginList(client)).items,
        permissions: await aff.userPermissions(client, { subject_uid: boss.sid }),
      };
    };
    const own = await who(m.client);
    expect(own.info.user_id).toBe(m.userId);
    const bossName = (await accountInfo<{ screen_name: string }>(boss.client)).screen_name;

    plant(m.browser);
    expect(await who(m.client), 'the member’s own answers, with the manager’s ids beside them').toEqual(own);
    const before = await snapshotState(server.app);
    await refused(
      aff.updateSubject(m.client, { sec_subject_uid: boss.sid, subject_name: 'hijacked' }),
      'permissionDenied',
    );
    await refused(
      aff.freezeSubject(m.client, { sec_subject_uid: boss.sid, is_frozen: 1 }),
      'permissionDenied',
    );
    await refused(
      aff.createRole(m.client, { subject_uid: boss.sid, role_key: 'x', role_name: 'x', permissions: [] }),
      'permissionDenied',
    );
    await refused(
      aff.deleteDeputy(m.client, { sec_subject_uid: boss.sid, user_identity_id: bossIdentity }),
      'permissionDenied',
    );
    expect(await snapshotState(server.app)).toEqual(before);
    // A change the member may make lands on the member's account, not on the manager's.
    await updateUserInfo(m.client, { name: 'Renamed Member' });
    const names = await server.app.db
      .selectFrom('users')
      .select(['id', 'screen_name'])
      .where('id', 'in', [m.userId, boss.userId])
      .execute();
    expect(Object.fromEntries(names.map((row) => [row.id, row.screen_name]))).toEqual({
      [m.userId]: 'Renamed Member',
      [boss.userId]: bossName,
    });

    // Without a session the same headers, cookies and bearer sign nobody in.
    const stranger = server.sdkBrowser();
    plant(stranger);
    const client = stranger.client();
    const unchanged = await snapshotState(server.app);
    await refused(accountInfo(client), 'notLoggedIn');
    await refused(aff.subjectLoginList(client), 'notLoggedIn');
    await refused(userToken(client), 'notLoggedIn');
    await refused(updateUserInfo(client, { name: 'Nobody' }), 'notLoggedIn');
    await refused(aff.freezeSubject(client, { sec_subject_uid: boss.sid, is_frozen: 1 }), 'notLoggedIn');
    expect(await snapshotState(server.app)).toEqual(unchanged);
  });

  it('a password given on create is re-checked', async () => {
    const p = await person();
    await refused(
      aff.createSubjectByMobile(p.client, {
        mobile: p.mobile,
        subject_name: 'S',
        deputy_name: 'D',
        password: 'certainly not it',
      }),
      'wrongCredentials',
    );
  });
});

describe('isolation between subjects', () => {
  it('a member of A gets the same answer for every B resource whether it exists or not, and nothing changes', async () => {
    const a = await manager('A');
    const b = await manager('B');
    const bMember = await member(b, ['member:read'], 'b-role');
    const bIdentity = bMember.identity;
    const calls = (sid: string, identity: string, roleKey: string) => [
      aff.subjectInfo(a.client, { sec_subject_uid: sid }),
      aff.updateSubject(a.client, { sec_subject_uid: sid, subject_name: 'hijacked' }),
      aff.freezeSubject(a.client, { sec_subject_uid: sid, is_frozen: 1 }),
      aff.listDeputies(a.client, { sec_subject_uid: sid }),
      aff.updateDeputy(a.client, { sec_subject_uid: sid, user_identity_id: identity, deputy_name: 'x' }),
      aff.freezeDeputy(a.client, { sec_subject_uid: sid, user_identity_id: identity, is_frozen: 1 }),
      aff.deleteDeputy(a.client, { sec_subject_uid: sid, user_identity_id: identity }),
      aff.resourceList(a.client, { subject_uid: sid }),
      aff.createRole(a.client, { subject_uid: sid, role_key: 'evil', role_name: 'evil', permissions: [] }),
      aff.updateRole(a.client, { subject_uid: sid, role_key: roleKey, permissions: [] }),
      aff.banRole(a.client, { subject_uid: sid, role_key: roleKey }),
      aff.listRoles(a.client, { subject_uid: sid }),
      aff.roleInfo(a.client, { subject_uid: sid, role_key: roleKey }),
      aff.createUserWithRole(a.client, {
        subject_uid: sid,
        account: a.mobile,
        deputy_name: 'x',
        role_key: roleKey,
      }),
      aff.addUserRoles(a.client, { subject_uid: sid, role_key: roleKey, sec_user_identity_ids: [identity] }),
      aff.deleteUserRoles(a.client, {
        subject_uid: sid,
        role_key: roleKey,
        sec_user_identity_ids: [identity],
      }),
      aff.listUserRoles(a.client, { subject_uid: sid, role_key: roleKey }),
      aff.allUserRoles(a.client, { subject_uid: sid }),
      aff.userPermissions(a.client, { subject_uid: sid, identity_id: identity }),
      aff.explainPermission(a.client, { subject_uid: sid, identity_id: identity, permission: 'member:read' }),
      aff.subjectLogin(a.client, { login_subject_uid: sid, user_identity_id: identity }),
      aff.switchMember(a.client, { to_sec_member_id: identity }),
      aff.listSubjects(a.client, { deputy_identity_id: identity }),
    ];
    const answers = async (promises: Promise<unknown>[]) =>
      Promise.all(
        promises.map((p) =>
          p.then(
            (data) => ({ data }),
            (e: { error_code: number }) => ({ error_code: e.error_code }),
          ),
        ),
      );

    const before = await snapshotState(server.app);
    const real = await answers(calls(b.sid, bIdentity, 'b-role'));
    const made = await answers(calls('no-such-subject', 'no-such-identity', 'no-such-role'));
    expect(real).toEqual(made);
    // Every answer is the one refusal, except listing one's own subjects narrowed to B's identity: empty.
    expect(
      real
        .slice(0, -1)
        .every((r) => 'error_code' in r && r.error_code === OrganisationErrorCode.subjectNotFound),
    ).toBe(true);
    expect(real.at(-1)).toEqual({ data: expect.objectContaining({ items: [], total: 0 }) });
    const after = await snapshotState(server.app);
    // Only session bookkeeping of A's browser may differ (none here: no sign-in succeeded).
    expect(after).toEqual(before);
  });
});

describe('exactly one manager per subject', () => {
  it('the database refuses a second manager, also under concurrent writes', async () => {
    const boss = await manager();
    const members = await Promise.all([member(boss, []), member(boss, []), member(boss, [])]);
    const promote = (id: string) =>
      server.app.db
        .updateTable('deputies')
        .set({ is_manager: 1 })
        .where('id', '=', id)
        .execute()
        .then(
          () => 'ok',
          () => 'refused',
        );
    expect(await Promise.all(members.map((m) => promote(m.identity)))).toEqual([
      'refused',
      'refused',
      'refused',
    ]);
    // With the manager stepped down (as a transfer does inside its transaction), one of the racers wins.
    await server.app.db
      .updateTable('deputies')
      .set({ is_manager: 0 })
      .where('subject_id', '=', boss.sid)
      .where('is_manager', '=', 1)
      .execute();
    const outcomes = await Promise.all(members.map((m) => promote(m.identity)));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    const managers = await server.app.db
      .selectFrom('deputies')
      .select('id')
      .where('subject_id', '=', boss.sid)
      .where('is_manager', '=', 1)
      .execute();
    expect(managers).toHaveLength(1);
  });

  it('concurrent acceptances of invitations of one account make one identity; concurrent subject creations each get their own manager', async () => {
    const boss = await manager();
    const p = await person();
    await aff.createRole(boss.client, {
      subject_uid: boss.sid,
      role_key: 'r',
      role_name: 'r',
      permissions: [],
    });
    // Five invitations for one person (links: five messages to one number would meet its cooldown).
    const invited = await Promise.all(
      Array.from({ length: 5 }, () =>
        aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'P', role_keys: ['r'] }),
      ),
    );
    // Each from a session of its own (accepting turns the session into the new identity's).
    const sessions = [p.client];
    for (let i = 1; i < invited.length; i += 1) sessions.push((await person(p.mobile)).client);
    const outcomes = await Promise.all(
      invited.map((invitation, i) =>
        aff.acceptInvitation(sessions[i]!, { invite_ticket: invitation.invite_ticket }).then(
          () => 'ok',
          (e: { error_code: number }) => e.error_code,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => o === OrganisationErrorCode.alreadyMember)).toBe(
      true,
    );
    const created = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        aff.createSubjectByMobile(p.client, { mobile: p.mobile, subject_name: `S${i}`, deputy_name: 'M' }),
      ),
    );
    for (const s of created) {
      const managers = await server.app.db
        .selectFrom('deputies')
        .select('user_id')
        .where('subject_id', '=', s.sec_subject_uid)
        .where('is_manager', '=', 1)
        .execute();
      expect(managers).toEqual([{ user_id: p.userId }]);
    }
  });
});

describe('an access statement extended in configuration', () => {
  it('serves the deployment’s resources, lets the manager grant them and carries them in the product token', async () => {
    const extended = await startSdkServer(
      { organisations: { statement: { report: ['read', 'export'] } } },
      { limits: { sendCooldownMs: 5 } },
    );
    try {
      const browser = extended.sdkBrowser();
      const client = browser.client();
      const mobile = freshMobile();
      await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
      await smsLogin(client, { mobile, code: await extended.codeFor(mobile) });
      const { sec_subject_uid: sid } = await aff.createSubjectByMobile(client, {
        mobile,
        subject_name: 'R',
        deputy_name: 'M',
      });
      const resources = await aff.resourceList(client, { subject_uid: sid, page_size: 100 });
      expect(resources.items.at(-1)).toEqual({ resource: 'report', actions: ['read', 'export'] });
      const role = await aff.createRole(client, {
        subject_uid: sid,
        role_key: 'analyst',
        role_name: 'Analyst',
        permissions: ['report:export'],
      });
      expect(role.permissions).toEqual(['report:export']);
      const mine = (await aff.subjectLoginList(client)).items[1]!;
      await aff.subjectLogin(client, { login_subject_uid: sid, user_identity_id: mine.user_identity_id });
      const { token } = await userToken(client);
      const { payload } = await jwtVerify(
        token,
        createRemoteJWKSet(new URL(`${extended.baseUrl}${JWKS_PATH}`)),
        {
          issuer: ISSUER,
        },
      );
      expect((payload.org as { permissions: string[] }).permissions).toEqual(
        expect.arrayContaining(['report:read', 'report:export']),
      );
      // The default server knows no such permission.
      const boss = await manager();
      await refused(
        aff.createRole(boss.client, {
          subject_uid: boss.sid,
          role_key: 'analyst',
          role_name: 'A',
          permissions: ['report:export'],
        }),
        'unknownPermission',
      );
    } finally {
      await extended.close();
    }
  });
});

describe('the active identity in account/info', () => {
  it('follows role changes at once, and on SQLite is read without waiting (the session check stays synchronous)', async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read', 'role:read']);
    await aff.createRole(boss.client, {
      subject_uid: boss.sid,
      role_key: 'extra',
      role_name: 'x',
      permissions: ['member:update'],
    });
    await aff.addUserRoles(boss.client, {
      subject_uid: boss.sid,
      role_key: 'extra',
      sec_user_identity_ids: [m.identity],
    });
    await aff.subjectLogin(m.client, { login_subject_uid: boss.sid, user_identity_id: m.identity });
    expect((await accountInfo(m.client)).org?.permissions).toEqual([
      'member:read',
      'member:update',
      'role:read',
    ]);
    await aff.banRole(boss.client, { subject_uid: boss.sid, role_key: m.roleKey });
    expect((await accountInfo(m.client)).org?.permissions).toEqual(['member:update']);
    const session = {
      id: 'x',
      userId: m.userId,
      user: await server.app.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', m.userId)
        .executeTakeFirstOrThrow(),
      createdAt: 0,
      expiresAt: 0,
      absoluteExpiresAt: 0,
      verifiedAt: null,
      factorVerifiedAt: null,
      deputyId: m.identity,
    };
    const found = activeIdentity(server.app, session);
    expect(found instanceof Promise).toBe(backend !== 'sqlite' && backend !== 'redis');
    expect((await found)?.permissions).toEqual(['member:update']);
    // On SQLite the answer is kept between changes of the database: a change committed by another
    // connection (an operator's sqlite3 shell, a second process) is seen by the next request too.
    if (backend !== 'postgres') {
      const other = new SQLite(join(server.config.dataDir, 'portico.db'));
      const outside = (statement: string, ...args: string[]) => {
        other.prepare(statement).run(...args);
      };
      try {
        // Each table the identity is read from, changed outside the server (migration 0017's triggers).
        outside("update roles set is_banned = 1 where role_key = 'extra'");
        expect((await accountInfo(m.client)).org?.permissions).toEqual([]);
        outside("update roles set is_banned = 0 where role_key = 'extra'");
        expect((await accountInfo(m.client)).org?.permissions).toEqual(['member:update']);
        const links = other
          .prepare<[string], Record<string, unknown>>('select * from deputy_roles where deputy_id = ?')
          .all(m.identity);
        outside('delete from deputy_roles where deputy_id = ?', m.identity);
        expect((await accountInfo(m.client)).org?.permissions).toEqual([]);
        for (const link of links)
          other
            .prepare(
              `insert into deputy_roles (${Object.keys(link).join(', ')}) values (${Object.keys(link)
                .map((k) => `@${k}`)
                .join(', ')})`,
            )
            .run(link);
        expect((await accountInfo(m.client)).org?.permissions).toEqual(['member:update']);
        outside('update deputies set deputy_name = ? where id = ?', 'Renamed', m.identity);
        expect((await accountInfo(m.client)).org?.deputy_name).toBe('Renamed');
        outside('update subjects set is_frozen = 1 where id = ?', boss.sid);
        expect((await accountInfo(m.client)).org?.subject_is_frozen).toBe(1);
      } finally {
        other.close();
      }
    }
  });
});

describe('organisations and account cancellation', () => {
  interface Check {
    can_cancel: boolean;
    blockers: { key: string; detail: Record<string, unknown> }[];
    losses: { key: string; count: number }[];
  }

  it('blocks a manager, naming the organisation, until it is handed over', async () => {
    const boss = await manager('Harbour Works');
    const check = await cancelCheck<Check>(boss.client);
    expect(check.can_cancel).toBe(false);
    expect(check.blockers).toEqual([{ key: 'sole_manager', detail: { organisations: ['Harbour Works'] } }]);
  });

  it("lists a member's identities as lost, and erasure removes them with their role links", async () => {
    const boss = await manager();
    const m = await member(boss, ['member:read']);
    const check = await cancelCheck<Check>(m.client);
    expect(check.can_cancel).toBe(true);
    expect(check.losses).toContainEqual({ key: 'organisation_memberships', count: 1 });
    const rows = () =>
      server.app.db.selectFrom('deputies').select('id').where('user_id', '=', m.userId).execute();
    const [deputy] = await rows();
    const eraser = server.app.cancellation.erasers.find((e) => e.key === 'deputies')!;
    await server.app.db
      .transaction()
      .execute((trx) => eraser.erase(trx, m.userId, { mobile: null, email: null }));
    expect(await rows()).toEqual([]);
    const links = await server.app.db
      .selectFrom('deputy_roles')
      .select('role_id')
      .where('deputy_id', '=', deputy!.id)
      .execute();
    expect(links).toEqual([]);
    // The manager and the subject are untouched.
    expect((await cancelCheck<Check>(boss.client)).blockers[0]?.key).toBe('sole_manager');
  });
});
