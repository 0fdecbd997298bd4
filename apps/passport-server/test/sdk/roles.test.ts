import * as aff from '@portico/affiliate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStatement, permissionsOf } from '../../src/protocol';
import { type SdkServer, startSdkServer } from '../support/sdk-browser';
import { eventsOf, type Manager, manager, member, refused, role } from './organisation-helpers';

/**
 * The grant rules through the real SDK: a role whose permissions exceed the caller's is out of its
 * reach — it cannot lift its ban, cut or rename it, ban it, take it from others or give it out; and
 * every role change is an event in the organisation's stream.
 */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

/** Twelve permissions: every one but the invitation resource's four. */
const TWELVE = permissionsOf(defaultStatement).filter((p) => !p.startsWith('invitation:'));

const roleOf = (boss: Manager, roleKey: string) =>
  aff.roleInfo(boss.client, { subject_uid: boss.sid, role_key: roleKey });
const permissionsIn = async (client: Manager['client'], sid: string) =>
  (await aff.userPermissions(client, { subject_uid: sid })).permissions;

describe('a role stronger than the caller is out of its reach', () => {
  it('a member whose only permission is role:ban cannot lift the ban of a stronger role it holds', async () => {
    const boss = await manager(server);
    const m = await member(server, boss, ['role:ban']);
    await role(boss, 'strong', TWELVE);
    await aff.addUserRoles(boss.client, {
      subject_uid: boss.sid,
      role_key: 'strong',
      sec_user_identity_ids: [m.identity],
    });
    await aff.banRole(boss.client, { subject_uid: boss.sid, role_key: 'strong' });
    expect(await permissionsIn(m.client, boss.sid)).toEqual(['role:ban']);

    await refused(
      aff.banRole(m.client, { subject_uid: boss.sid, role_key: 'strong', is_banned: 0 }),
      'grantExceedsOwn',
    );
    expect(await permissionsIn(m.client, boss.sid)).toEqual(['role:ban']);
    expect((await roleOf(boss, 'strong')).is_banned).toBe(1);
    // Nor can it ban a stronger role that others hold.
    await role(boss, 'other', TWELVE);
    await refused(aff.banRole(m.client, { subject_uid: boss.sid, role_key: 'other' }), 'grantExceedsOwn');
    expect((await roleOf(boss, 'other')).is_banned).toBe(0);
  });

  it('a member with role:update cannot cut a stronger role’s permissions, rename it or change its description', async () => {
    const boss = await manager(server);
    const m = await member(server, boss, ['role:update', 'role:read']);
    await role(boss, 'strong', TWELVE);
    const before = await roleOf(boss, 'strong');
    await refused(
      aff.updateRole(m.client, { subject_uid: boss.sid, role_key: 'strong', permissions: ['role:read'] }),
      'grantExceedsOwn',
    );
    await refused(
      aff.updateRole(m.client, { subject_uid: boss.sid, role_key: 'strong', role_name: 'Nobody' }),
      'grantExceedsOwn',
    );
    await refused(
      aff.updateRole(m.client, { subject_uid: boss.sid, role_key: 'strong', description: 'x' }),
      'grantExceedsOwn',
    );
    expect(await roleOf(boss, 'strong')).toEqual(before);
    // A role within its reach it may still edit.
    await role(boss, 'reader', ['role:read']);
    expect(
      await aff.updateRole(m.client, { subject_uid: boss.sid, role_key: 'reader', role_name: 'Readers' }),
    ).toMatchObject({ role_name: 'Readers', permissions: ['role:read'] });
  });

  it('a member with role:assign cannot take a stronger role from others, nor give it', async () => {
    const boss = await manager(server);
    const m = await member(server, boss, ['role:assign', 'role:read']);
    const other = await member(server, boss, TWELVE, 'strong');
    await refused(
      aff.deleteUserRoles(m.client, {
        subject_uid: boss.sid,
        role_key: 'strong',
        sec_user_identity_ids: [other.identity],
      }),
      'grantExceedsOwn',
    );
    expect(await permissionsIn(other.client, boss.sid)).toEqual(TWELVE);
    await refused(
      aff.addUserRoles(m.client, {
        subject_uid: boss.sid,
        role_key: 'strong',
        sec_user_identity_ids: [m.identity],
      }),
      'grantExceedsOwn',
    );
    expect(await permissionsIn(m.client, boss.sid)).toEqual(['role:read', 'role:assign']);
  });

  it('a member with role:create cannot create a role with permissions beyond its own', async () => {
    const boss = await manager(server);
    const m = await member(server, boss, ['role:create', 'role:read']);
    await refused(
      aff.createRole(m.client, {
        subject_uid: boss.sid,
        role_key: 'mine',
        role_name: 'mine',
        permissions: ['role:read', 'member:delete'],
      }),
      'grantExceedsOwn',
    );
    await refused(roleOf(boss, 'mine'), 'roleNotFound');
  });
});

describe('role events', () => {
  it('each role change is an event in the organisation’s stream, with actor, subject and target member', async () => {
    const boss = await manager(server);
    // The member joins with 'viewer' through the members flow, which is not an operation yet.
    const m = await member(server, boss, ['member:read'], 'viewer');
    await aff.updateRole(boss.client, { subject_uid: boss.sid, role_key: 'viewer', role_name: 'Viewers' });
    await aff.banRole(boss.client, { subject_uid: boss.sid, role_key: 'viewer' });
    await aff.banRole(boss.client, { subject_uid: boss.sid, role_key: 'viewer', is_banned: 0 });
    await role(boss, 'extra', ['role:read']);
    await aff.addUserRoles(boss.client, {
      subject_uid: boss.sid,
      role_key: 'extra',
      sec_user_identity_ids: [m.identity],
    });
    // Given twice, it is granted once.
    await aff.addUserRoles(boss.client, {
      subject_uid: boss.sid,
      role_key: 'extra',
      sec_user_identity_ids: [m.identity],
    });
    await aff.deleteUserRoles(boss.client, {
      subject_uid: boss.sid,
      role_key: 'extra',
      sec_user_identity_ids: [m.identity],
    });

    const events = await eventsOf(server, boss.sid, 'organisation.role.');
    const actor = { kind: 'identity', userId: boss.userId, subjectId: boss.sid, deputyId: boss.identity };
    const base = { version: 1, actor, subject: boss.sid };
    expect(events).toEqual([
      {
        ...base,
        type: 'organisation.role.created',
        target: null,
        data: { roleKey: 'viewer', roleName: 'viewer', permissions: ['member:read'] },
      },
      {
        ...base,
        type: 'organisation.role.updated',
        target: null,
        data: {
          roleKey: 'viewer',
          roleName: 'Viewers',
          permissions: ['member:read'],
          description: '',
          previous: { roleName: 'viewer', permissions: ['member:read'], description: '' },
        },
      },
      { ...base, type: 'organisation.role.banned', target: null, data: { roleKey: 'viewer' } },
      { ...base, type: 'organisation.role.unbanned', target: null, data: { roleKey: 'viewer' } },
      {
        ...base,
        type: 'organisation.role.created',
        target: null,
        data: { roleKey: 'extra', roleName: 'extra', permissions: ['role:read'] },
      },
      {
        ...base,
        type: 'organisation.role.granted',
        target: m.userId,
        data: { roleKey: 'extra', memberId: m.identity },
      },
      {
        ...base,
        type: 'organisation.role.revoked',
        target: m.userId,
        data: { roleKey: 'extra', memberId: m.identity },
      },
    ]);
  });
});
