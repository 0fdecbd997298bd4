import * as aff from '@portico/affiliate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkServer, startSdkServer } from '../support/sdk-browser';
import { eventsOf, type Manager, manager, member, refused, role } from './organisation-helpers';

/**
 * Members and the organisation itself as operations, through the real SDK: the reach rule for freezing
 * and removing, leaving, and the events each change writes in the organisation's stream.
 */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

const identityActor = (boss: Manager) => ({
  kind: 'identity',
  userId: boss.userId,
  subjectId: boss.sid,
  deputyId: boss.identity,
});

const members = async (boss: Manager) =>
  (await aff.listDeputies(boss.client, { sec_subject_uid: boss.sid })).items.map((d) => d.deputy_name);

describe('a member stronger than the caller is out of its reach', () => {
  it('one holding member:freeze and member:delete cannot freeze or remove a member whose roles grant more', async () => {
    const boss = await manager(server);
    const warden = await member(server, boss, ['member:freeze', 'member:delete', 'member:read']);
    const strong = await member(server, boss, ['member:freeze', 'role:create']);
    const weak = await member(server, boss, ['member:read']);
    const on = (m: { identity: string }) => ({ sec_subject_uid: boss.sid, user_identity_id: m.identity });
    const stronger = { error: 'grantExceedsOwn' } as const;
    await refused(aff.freezeDeputy(warden.client, { ...on(strong), is_frozen: 1 }), stronger.error);
    await refused(aff.deleteDeputy(warden.client, on(strong)), stronger.error);
    // A banned role still counts: lifting its ban would give it back to someone the caller could not.
    await aff.banRole(boss.client, { subject_uid: boss.sid, role_key: strong.roleKey });
    await refused(aff.deleteDeputy(warden.client, on(strong)), stronger.error);
    expect(await members(boss)).toEqual(['Boss', 'Member', 'Member', 'Member']);
    // Within reach: frozen, thawed, removed.
    expect((await aff.freezeDeputy(warden.client, { ...on(weak), is_frozen: 1 })).is_frozen).toBe(1);
    expect((await aff.freezeDeputy(warden.client, { ...on(weak), is_frozen: 0 })).is_frozen).toBe(0);
    expect(await aff.deleteDeputy(warden.client, on(weak))).toEqual({ deleted: true });
    // The manager holds every permission: everyone but itself is within its reach.
    expect(await aff.deleteDeputy(boss.client, on(strong))).toEqual({ deleted: true });
    await refused(
      aff.deleteDeputy(warden.client, { sec_subject_uid: boss.sid, user_identity_id: boss.identity }),
      'managerProtected',
    );
  });
});

describe('leaving an organisation', () => {
  it('a member leaves with their roles and is told apart from a removal; the manager must transfer first', async () => {
    const boss = await manager(server);
    const m = await member(server, boss, ['member:read'], 'viewer');
    await refused(aff.leaveSubject(boss.client, { sec_subject_uid: boss.sid }), 'managerProtected');
    // A frozen member may still leave.
    await aff.freezeDeputy(boss.client, {
      sec_subject_uid: boss.sid,
      user_identity_id: m.identity,
      is_frozen: 1,
    });
    expect(await aff.leaveOrganisation(m.client, { sec_subject_uid: boss.sid })).toEqual({ left: true });
    expect(await members(boss)).toEqual(['Boss']);
    await refused(aff.leaveSubject(m.client, { sec_subject_uid: boss.sid }), 'subjectNotFound');
    const left = await eventsOf(server, boss.sid, 'organisation.member.left');
    expect(left).toEqual([
      {
        type: 'organisation.member.left',
        version: 1,
        actor: { kind: 'identity', userId: m.userId, subjectId: boss.sid, deputyId: m.identity },
        subject: boss.sid,
        target: m.userId,
        data: { memberId: m.identity, memberName: 'Member', roleKeys: ['viewer'] },
      },
    ]);
  });
});

describe('member and organisation events', () => {
  it('freezing, thawing and removing a member are events with actor, target and the member as it was', async () => {
    const boss = await manager(server);
    const m = await member(server, boss, ['member:read'], 'viewer');
    const on = { sec_subject_uid: boss.sid, user_identity_id: m.identity };
    await aff.freezeDeputy(boss.client, { ...on, is_frozen: 1 });
    // Freezing a frozen member changes nothing and writes nothing.
    await aff.freezeDeputy(boss.client, { ...on, is_frozen: 1 });
    await aff.freezeDeputy(boss.client, { ...on, is_frozen: 0 });
    await aff.deleteDeputy(boss.client, on);
    const data = { memberId: m.identity, memberName: 'Member', roleKeys: ['viewer'] };
    const base = { version: 1, actor: identityActor(boss), subject: boss.sid, target: m.userId, data };
    // The member's invitation and joining come first (the invitations' own events, tested there).
    const joining = ['organisation.member.invited', 'organisation.member.joined'];
    expect(
      (await eventsOf(server, boss.sid, 'organisation.member.')).filter((e) => !joining.includes(e.type)),
    ).toEqual([
      { ...base, type: 'organisation.member.frozen' },
      { ...base, type: 'organisation.member.thawed' },
      { ...base, type: 'organisation.member.removed' },
    ]);
  });

  it('creating, updating, freezing and thawing the organisation are events; no real-name value is in one', async () => {
    const boss = await manager(server, 'Acme');
    await role(boss, 'viewer', ['member:read']);
    await aff.updateSubject(boss.client, {
      sec_subject_uid: boss.sid,
      subject_name: 'Acme Ltd',
      real_name: 'Zhang San',
    });
    await aff.freezeSubject(boss.client, { sec_subject_uid: boss.sid, is_frozen: 1 });
    await aff.freezeSubject(boss.client, { sec_subject_uid: boss.sid, is_frozen: 1 });
    await aff.freezeSubject(boss.client, { sec_subject_uid: boss.sid, is_frozen: 0 });
    const events = await eventsOf(server, boss.sid, 'organisation.');
    const base = { version: 1, actor: identityActor(boss), subject: boss.sid, target: null };
    expect(events.filter((e) => !e.type.startsWith('organisation.role.'))).toEqual([
      { ...base, type: 'organisation.created', data: { name: 'Acme' } },
      {
        ...base,
        type: 'organisation.updated',
        data: { name: 'Acme Ltd', changed: ['subject_name', 'real_name'] },
      },
      { ...base, type: 'organisation.frozen', data: { name: 'Acme Ltd' } },
      { ...base, type: 'organisation.thawed', data: { name: 'Acme Ltd' } },
    ]);
    expect(JSON.stringify(events)).not.toContain('Zhang San');
  });

  it('a refused change writes no event', async () => {
    const boss = await manager(server);
    const m = await member(server, boss, ['member:read']);
    await refused(
      aff.freezeSubject(m.client, { sec_subject_uid: boss.sid, is_frozen: 1 }),
      'permissionDenied',
    );
    await refused(
      aff.deleteDeputy(m.client, { sec_subject_uid: boss.sid, user_identity_id: boss.identity }),
      'permissionDenied',
    );
    expect((await eventsOf(server, boss.sid, 'organisation.')).map((e) => e.type)).toEqual([
      'organisation.created',
      'organisation.role.created',
      'organisation.member.invited',
      'organisation.member.joined',
    ]);
  });
});
