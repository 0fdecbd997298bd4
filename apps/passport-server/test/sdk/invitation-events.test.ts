import { type AccountClient, accountInfo, listAccountActivity } from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../src/adapters/invoke';
import type { MailMessage } from '../../src/delivery/providers';
import { DeliveryError } from '../../src/delivery/providers';
import { acceptInvitation } from '../../src/operations/organisation/invitations';
import { ErrorCode } from '../../src/protocol';
import { GOOD_PASSWORD, passCooldown, until } from '../support/flows';
import { rejection, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { backend, freshEmail, freshMobile } from '../support/server';
import { managerWithReader, person } from './organisation-helpers';

/**
 * The invitation operations' events and sign-ins: an invitation, its cancellation and its acceptance
 * are in the organisation's audit log (who, to whom, when; never the invited contact); accepting signs
 * the person in through completeSignIn (the sign-in event with its new-device flag, the session in the
 * new identity); the link is the server's own; a first message that fails leaves no invitation behind.
 */

let server: SdkServer;
/** Mail that fails while `mailFails` is set; codes and SMS stay in the dev outbox. */
let mailFails = false;
const mails: MailMessage[] = [];
beforeAll(async () => {
  server = await startSdkServer(
    {},
    {
      limits: { sendCooldownMs: 5 },
      mail: {
        name: 'flaky',
        send: async (message: MailMessage) => {
          if (mailFails) throw new DeliveryError('the provider is down');
          mails.push(message);
        },
      },
    },
  );
});
afterAll(async () => server?.close());

const log = (client: AccountClient, sid: string, type: string) =>
  aff.listAuditLog(client, { sec_subject_uid: sid, type });

const activity = (client: AccountClient) => listAccountActivity(client, { type: 'account.signed_in' });

describe('the invitation events', () => {
  it('an accepted invitation is in the organisation’s log: who invited whom as what, who joined, and when', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const invitee = await person(server);
    const t0 = Date.now();
    const issued = await aff.inviteByMobile(boss.client, {
      subject_uid: boss.sid,
      contact: invitee.mobile,
      deputy_name: 'Ada',
      role_keys: ['reader'],
    });
    await aff.acceptInvitation(invitee.client, { invite_ticket: issued.invite_ticket });

    const page = await until(
      () => log(boss.client, boss.sid, 'organisation.member.'),
      (p) => p.entries.length >= 2,
      'the invitation and the joining',
    );
    const [joined, invited] = page.entries;
    expect(invited).toMatchObject({
      type: 'organisation.member.invited',
      version: 1,
      actor: { kind: 'identity', userId: boss.userId, subjectId: boss.sid },
      subject_id: boss.sid,
      target_user_id: null,
      data: {
        invitationId: issued.invite_id,
        channel: 'mobile',
        memberId: issued.deputy_identity_id,
        roleKeys: ['reader'],
      },
    });
    expect(joined).toMatchObject({
      type: 'organisation.member.joined',
      version: 1,
      actor: { kind: 'person', userId: invitee.userId },
      subject_id: boss.sid,
      target_user_id: invitee.userId,
      data: {
        invitationId: issued.invite_id,
        channel: 'mobile',
        memberId: issued.deputy_identity_id,
        roleKeys: ['reader'],
        inviterId: issued.inviter_identity_id,
      },
    });
    for (const entry of [invited!, joined!]) {
      expect(entry.occurred_at).toBeGreaterThanOrEqual(t0 - 1000);
      expect(entry.occurred_at).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(joined!.occurred_at).toBeGreaterThanOrEqual(invited!.occurred_at);
    // The names of both, as members now.
    expect(page.names).toMatchObject({ [boss.userId]: 'Boss', [invitee.userId]: 'Ada' });
    // The invited number is in no event.
    const digits = invitee.mobile.replace(/\D/g, '').slice(-8);
    expect(JSON.stringify(page.entries)).not.toContain(digits);
  });

  it('a cancelled invitation is in the log with its channel, never its contact', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const email = freshEmail();
    const issued = await aff.inviteByEmail(boss.client, {
      subject_uid: boss.sid,
      contact: email,
      deputy_name: 'Bo',
    });
    await aff.cancelInvitation(boss.client, { subject_uid: boss.sid, invite_id: issued.invite_id });
    const page = await until(
      () => log(boss.client, boss.sid, 'organisation.invitation.cancelled'),
      (p) => p.entries.length >= 1,
      'the cancellation',
    );
    expect(page.entries[0]).toMatchObject({
      actor: { kind: 'identity', userId: boss.userId },
      data: { invitationId: issued.invite_id, channel: 'email', reason: 'cancelled' },
    });
    expect(JSON.stringify(page.entries)).not.toContain(email);
  });

  it('an updated and a resent invitation are in the log: which fields, the roles now, never the name or contact', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const email = freshEmail();
    const issued = await aff.inviteByEmail(boss.client, {
      subject_uid: boss.sid,
      contact: email,
      deputy_name: 'Cy',
    });
    await aff.updateInvitation(boss.client, {
      subject_uid: boss.sid,
      invite_id: issued.invite_id,
      deputy_name: 'Cyrus Secretname',
      role_keys: ['reader'],
    });
    // An update that changes nothing is no event.
    await aff.updateInvitation(boss.client, {
      subject_uid: boss.sid,
      invite_id: issued.invite_id,
      deputy_name: 'Cyrus Secretname',
    });
    await passCooldown();
    await aff.resendInvitation(boss.client, { subject_uid: boss.sid, invite_id: issued.invite_id });
    const page = await until(
      () => log(boss.client, boss.sid, 'organisation.invitation.'),
      (p) => p.entries.length >= 2,
      'the update and the resend',
    );
    const [resent, updated, ...rest] = page.entries;
    expect(rest).toEqual([]);
    expect(updated).toMatchObject({
      type: 'organisation.invitation.updated',
      actor: { kind: 'identity', userId: boss.userId, subjectId: boss.sid },
      data: {
        invitationId: issued.invite_id,
        channel: 'email',
        changed: ['deputy_name', 'role_keys'],
        roleKeys: ['reader'],
      },
    });
    expect(resent).toMatchObject({
      type: 'organisation.invitation.resent',
      actor: { kind: 'identity', userId: boss.userId },
      data: { invitationId: issued.invite_id, channel: 'email', resentCount: 1 },
    });
    expect(JSON.stringify(page.entries)).not.toContain(email);
    expect(JSON.stringify(page.entries)).not.toContain('Secretname');
  });
});

describe('accepting signs in through completeSignIn', () => {
  it('registering with the invited mobile: a sign-in by SMS code on a new device, into the new identity', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const mobile = freshMobile();
    const issued = await aff.inviteByMobile(boss.client, {
      subject_uid: boss.sid,
      contact: mobile,
      deputy_name: 'Newcomer',
      role_keys: ['reader'],
    });
    const stranger = server.sdkBrowser().client();
    await passCooldown();
    await aff.sendInvitationCode(stranger, { invite_ticket: issued.invite_ticket });
    const accepted = await aff.acceptInvitation(stranger, {
      invite_ticket: issued.invite_ticket,
      password: GOOD_PASSWORD,
      code: await server.codeFor(mobile),
    });
    expect(accepted).toMatchObject({ new_user: true, org: { user_identity_id: issued.deputy_identity_id } });
    const info = await accountInfo<{ org: { user_identity_id: string } }>(stranger);
    expect(info.org.user_identity_id).toBe(issued.deputy_identity_id);
    const page = await until(
      () => activity(stranger),
      (p) => p.entries.length >= 1,
      'the sign-in',
    );
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]).toMatchObject({
      type: 'account.signed_in',
      data: { method: 'mobileCode', newDevice: true },
    });
  });

  it('signed in already: the session of the same account, on the device it signed in on', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const holder = await person(server);
    const link = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'Holder' });
    const accepted = await aff.acceptInvitation(holder.client, { invite_ticket: link.invite_ticket });
    expect(accepted).toMatchObject({ new_user: false, org: { user_identity_id: link.deputy_identity_id } });
    const page = await until(
      () => activity(holder.client),
      (p) => p.entries.length >= 2,
      'both sign-ins',
    );
    expect(page.entries.map((e) => e.data)).toEqual([
      { method: 'session', newDevice: false },
      { method: 'mobileCode', newDevice: true },
    ]);
  });
});

describe('the accept operation, called directly', () => {
  it('refuses a person who neither holds nor proved the invited contact, whichever adapter calls it', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const issued = await aff.inviteByMobile(boss.client, {
      subject_uid: boss.sid,
      contact: freshMobile(),
      deputy_name: 'Direct',
    });
    const other = await person(server);
    const db = server.app.db;
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', other.userId)
      .executeTakeFirstOrThrow();
    const { contact } = await db
      .selectFrom('invitations')
      .select('contact')
      .where('id', '=', issued.invite_id)
      .executeTakeFirstOrThrow();
    const input = { invite_ticket: issued.invite_ticket };
    await expect(invoke(server.app, acceptInvitation, input, { kind: 'person', user })).rejects.toMatchObject(
      {
        errorName: 'invitationContactMismatch',
      },
    );
    // Another contact proved is no proof of this one.
    const elsewhere = { channel: 'mobile' as const, value: other.mobile };
    await expect(
      invoke(server.app, acceptInvitation, input, { kind: 'person', user, provenContact: elsewhere }),
    ).rejects.toMatchObject({ errorName: 'invitationContactMismatch' });
    const proven = { channel: 'mobile' as const, value: contact ?? '' };
    const joined = await invoke(server.app, acceptInvitation, input, {
      kind: 'person',
      user,
      provenContact: proven,
    });
    expect(joined).toMatchObject({ subject_id: boss.sid, deputy_id: issued.deputy_identity_id });
  });
});

describe('the link and the message', () => {
  it('the link is the server’s own page whatever the inviter sends', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const page = `${server.app.config.publicOrigin}/invite?invite_ticket=`;
    const issued = await aff.inviteByLink(boss.client, {
      subject_uid: boss.sid,
      deputy_name: 'L',
      link: 'https://phish.example/login',
    });
    expect(issued.link).toBe(`${page}${issued.invite_ticket}`);
    await passCooldown();
    const email = freshEmail();
    const mailed = await aff.inviteByEmail(boss.client, {
      subject_uid: boss.sid,
      contact: email,
      deputy_name: 'M',
      link: '/elsewhere',
    });
    expect(mailed.link).toBe(`${page}${mailed.invite_ticket}`);
    expect(mails.find((m) => m.to === email)?.text).toContain(mailed.link);
    const resent = await aff.resendInvitation(boss.client, {
      subject_uid: boss.sid,
      invite_id: issued.invite_id,
      link: 'https://phish.example/again',
    });
    expect(resent.link).toBe(`${page}${resent.invite_ticket}`);
  });

  it('a first message that fails leaves no invitation behind, and the log says it was withdrawn', async () => {
    const boss = await managerWithReader(server, 'Invited Ltd');
    const email = freshEmail();
    mailFails = true;
    try {
      const error = await rejection(
        aff.inviteByEmail(boss.client, { subject_uid: boss.sid, contact: email, deputy_name: 'Lost' }),
      );
      expect(error.error_code).toBe(ErrorCode.deliveryFailed);
    } finally {
      mailFails = false;
    }
    expect((await aff.listInvitations(boss.client, { subject_uid: boss.sid })).total).toBe(0);
    const page = await until(
      () => log(boss.client, boss.sid, 'organisation.'),
      (p) => p.entries.some((e) => e.type === 'organisation.invitation.cancelled'),
      'the withdrawal',
    );
    const invited = page.entries.find((e) => e.type === 'organisation.member.invited');
    const withdrawn = page.entries.find((e) => e.type === 'organisation.invitation.cancelled');
    expect(withdrawn?.data).toEqual({
      invitationId: invited?.data.invitationId,
      channel: 'email',
      reason: 'undelivered',
    });
  });
});

describe('erasure’s lookups', () => {
  it('invitations are indexed by contact and by the account that accepted them', async () => {
    const onPostgres =
      backend === 'postgres' || (backend === 'services' && Boolean(process.env.DATABASE_URL));
    const { rows } = await (onPostgres
      ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'invitations'`
      : sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'invitations'`
    ).execute(server.app.db);
    expect(rows.map((r) => r.name)).toEqual(
      expect.arrayContaining(['invitations_contact', 'invitations_accepted_by']),
    );
  });
});
