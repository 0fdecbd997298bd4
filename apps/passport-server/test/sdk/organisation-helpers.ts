import { type AccountClient, sendMobileCode, smsLogin } from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import { expect } from 'vitest';
import { CodeType, OrganisationErrorCode, type OrganisationErrorName } from '../../src/protocol';
import { passCooldown } from '../support/flows';
import { rejection, type SdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/** People, organisations and members through the real affiliate SDK, for the organisation suites. */

export interface Person {
  client: AccountClient;
  mobile: string;
  userId: string;
}

/** A fresh account signed in by SMS code (sign-in-or-register), with its own browser. */
export async function person(server: SdkServer): Promise<Person> {
  const client = server.sdkBrowser().client();
  const mobile = freshMobile();
  await passCooldown();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  const account = await smsLogin<{ user_id: string }>(client, { mobile, code: await server.codeFor(mobile) });
  return { client, mobile, userId: account.user_id };
}

export type Manager = Person & { sid: string; identity: string };

/** A person managing a new subject. */
export async function manager(server: SdkServer, name = 'Example Ltd'): Promise<Manager> {
  const p = await person(server);
  const subject = await aff.createSubjectByMobile(p.client, {
    mobile: p.mobile,
    subject_name: name,
    deputy_name: 'Boss',
  });
  const own = await aff.userPermissions(p.client, { subject_uid: subject.sec_subject_uid });
  return { ...p, sid: subject.sec_subject_uid, identity: own.user_identity_id };
}

/** A role of the manager's subject with these permissions. */
export const role = (boss: Manager, roleKey: string, permissions: readonly string[], roleName = roleKey) =>
  aff.createRole(boss.client, {
    subject_uid: boss.sid,
    role_key: roleKey,
    role_name: roleName,
    permissions: [...permissions],
  });

/** A person managing a new subject that has a `reader` role (member:read), for the invitation suites. */
export async function managerWithReader(server: SdkServer, name?: string): Promise<Manager> {
  const boss = await manager(server, name);
  await role(boss, 'reader', ['member:read'], 'Reader');
  return boss;
}

/**
 * A new member of the manager's subject holding a new role (`roleKey`) with these permissions: invited,
 * and the invitation accepted (adding an account is always an invitation the person accepts).
 */
export async function member(
  server: SdkServer,
  boss: Manager,
  permissions: readonly string[],
  roleKey = `r${Math.random().toString(36).slice(2, 8)}`,
) {
  const p = await person(server);
  await role(boss, roleKey, permissions);
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
export async function refused(call: Promise<unknown>, name: OrganisationErrorName) {
  const error = await rejection(call);
  expect({ kind: error.kind, error_code: error.error_code }).toEqual({
    kind: 'response',
    error_code: OrganisationErrorCode[name],
  });
  return error;
}

/** The subject's managers, by account (one, unless something broke). */
export async function managersOf(server: SdkServer, sid: string) {
  const rows = await server.app.db
    .selectFrom('deputies')
    .select('user_id')
    .where('subject_id', '=', sid)
    .where('is_manager', '=', 1)
    .execute();
  return rows.map((row) => row.user_id);
}

/** The organisation's events whose type starts with `prefix`, oldest first, as a consumer reads them. */
export async function eventsOf(server: SdkServer, sid: string, prefix: string) {
  const rows = await server.app.db
    .selectFrom('events')
    .selectAll()
    .where('stream', '=', `subject:${sid}`)
    .where('type', 'like', `${prefix}%`)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    type: row.type,
    version: row.version,
    actor: JSON.parse(row.actor),
    subject: row.subject_id,
    target: row.target_user_id,
    data: JSON.parse(row.data),
  }));
}
