import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accountInfo, cancelCheck } from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganisationErrorCode, type OrganisationErrorName } from '../../src/protocol';
import { passCooldown } from '../support/flows';
import { rejection, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshEmail } from '../support/server';
import { type Manager, managersOf, managerWithReader, member, person } from './organisation-helpers';

/**
 * Invitations and the manager transfer end to end through the real `@portico/affiliate-sdk` (issue 13):
 * e-mail through a real SMTP server on loopback, workplace chat through a real HTTP webhook on loopback,
 * SMS and codes through the dev outbox; every lifecycle step and refusal, single use under concurrency,
 * and the transfer's steps, abandonment and the one-manager rule.
 */

const mails: { to: string; raw: string }[] = [];
const chats: Record<string, unknown>[] = [];
let smtp: SMTPServer;
let chat: Server;
let server: SdkServer;
/** The server's clock runs `skew` ms ahead of the wall clock (expiry without waiting). */
let skew = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  chat = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      chats.push({ ...JSON.parse(body), authorization: request.headers.authorization });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
  server = await startSdkServer(
    {
      smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      smtpFrom: 'Portico <no-reply@portico.test>',
      // SMS (and codes to mobiles) stay in the dev outbox; e-mail goes to SMTP, chat to the webhook.
      devOutbox: 'on',
      chatWebhookUrl: `http://127.0.0.1:${(chat.address() as AddressInfo).port}/hook`,
      chatWebhookToken: 'chat-secret',
      // An hour instead of 7 days, so the expiry test moves the clock less than a session's idle time.
      inviteTtlSeconds: 3600,
    },
    { limits: { sendCooldownMs: 5 }, now: () => Date.now() + skew },
  );
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => smtp?.close(resolve));
  await new Promise<void>((resolve) => chat?.close(() => resolve()));
});

/** A mail's text with quoted-printable undone. */
const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function mailTo(to: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const mail = [...mails].reverse().find((m) => m.to === to && pattern.test(decoded(m.raw)));
    if (mail) return decoded(mail.raw).match(pattern)![1]!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

const TICKET = /invite_ticket=([A-Za-z0-9_-]{43})/;

async function refused(call: Promise<unknown>, name: OrganisationErrorName | number) {
  const error = await rejection(call);
  const code = typeof name === 'number' ? name : OrganisationErrorCode[name];
  expect({ kind: error.kind, error_code: error.error_code }).toEqual({ kind: 'response', error_code: code });
  expect(error.description).not.toBe('');
  return error;
}
const NOT_LOGGED_IN = 1101;

const memberships = (sid: string) =>
  server.app.db
    .selectFrom('deputies')
    .select(['user_id', 'is_manager'])
    .where('subject_id', '=', sid)
    .execute();

describe('invitations', () => {
  it('by e-mail: the mail carries organisation, inviter and link; a person without an account previews, registers and joins with the role in one call', async () => {
    const boss = await managerWithReader(server, 'Harbour Works');
    const email = freshEmail();
    const issued = await aff.inviteByEmail(boss.client, {
      subject_uid: boss.sid,
      contact: email,
      deputy_name: 'Ada',
      role_keys: ['reader'],
    });
    expect(issued).toMatchObject({
      channel: 'email',
      state: 'pending',
      deputy_name: 'Ada',
      role_keys: ['reader'],
    });
    expect(issued.contact).not.toContain(email.split('@')[0]!.slice(1));
    const ticket = await mailTo(email, TICKET);
    expect(ticket).toBe(issued.invite_ticket);
    const text = decoded(mails.find((m) => m.to === email)!.raw);
    expect(text).toContain('Harbour Works');
    expect(text).toContain('Boss invited you');

    const stranger = server.sdkBrowser().client();
    const preview = await aff.checkInvitation(stranger, { invite_ticket: ticket });
    expect(Object.keys(preview).sort()).toEqual(
      ['channel', 'contact', 'expires_at', 'inviter_name', 'role_names', 'subject_name'].sort(),
    );
    expect(preview).toMatchObject({
      subject_name: 'Harbour Works',
      inviter_name: 'Boss',
      role_names: ['Reader'],
      channel: 'email',
    });
    expect(preview.contact).toMatch(/^.\*\*\*@example\.com$/);

    // Without the code the contact is not proven: nothing joins.
    await refused(
      aff.acceptInvitation(stranger, { invite_ticket: ticket, password: 'correct horse battery staple' }),
      'invitationSignInRequired',
    );
    await aff.sendInvitationCode(stranger, { invite_ticket: ticket });
    const code = await mailTo(email, /code is (\d{6})/);
    const accepted = await aff.acceptInvitation(stranger, {
      invite_ticket: ticket,
      password: 'correct horse battery staple',
      code,
      extra: { source: 'mail' },
    });
    expect(accepted).toMatchObject({
      new_user: true,
      org: { sec_subject_uid: boss.sid, deputy_name: 'Ada' },
    });
    expect(accepted.org.permissions).toEqual(['member:read']);
    const info = await accountInfo<{ email: string; org: { user_identity_id: string } }>(stranger);
    expect(info.org.user_identity_id).toBe(issued.deputy_identity_id);

    // Replay: the ticket is spent.
    await refused(
      aff.checkInvitation(server.sdkBrowser().client(), { invite_ticket: ticket }),
      'invitationUsed',
    );
    await refused(aff.acceptInvitation(stranger, { invite_ticket: ticket }), 'invitationUsed');
    const list = await aff.listInvitations(boss.client, { subject_uid: boss.sid, state: 'accepted' });
    expect(list.items.map((i) => i.invite_id)).toEqual([issued.invite_id]);
  });

  it('by mobile: only the account holding that mobile accepts; another is refused, a stranger must prove it', async () => {
    const boss = await managerWithReader(server);
    const invitee = await person(server);
    const other = await person(server);
    const issued = await aff.inviteByMobile(boss.client, {
      subject_uid: boss.sid,
      contact: invitee.mobile,
      deputy_name: 'Bo',
      role_keys: ['reader'],
    });
    const sms = await fetch(`${server.baseUrl}/dev/outbox/messages?to=${encodeURIComponent(invitee.mobile)}`);
    const body = (await sms.json()) as { data: { messages: { text: string }[] } };
    const text = body.data.messages[0]!.text;
    expect(text).toContain('Example Ltd');
    expect(text).toContain('Boss');
    expect(text.match(TICKET)![1]).toBe(issued.invite_ticket);

    await refused(
      aff.acceptInvitation(other.client, { invite_ticket: issued.invite_ticket }),
      'invitationContactMismatch',
    );
    // A made-up code from the other account does not make it the invitee.
    const guess = await rejection(
      aff.acceptInvitation(other.client, { invite_ticket: issued.invite_ticket, code: '000000' }),
    );
    expect(guess.error_code).not.toBe(0);
    // A stranger registering the mobile that already has an account: proven, but must sign in.
    const stranger = server.sdkBrowser().client();
    await passCooldown();
    await aff.sendInvitationCode(stranger, { invite_ticket: issued.invite_ticket });
    await refused(
      aff.acceptInvitation(stranger, {
        invite_ticket: issued.invite_ticket,
        password: 'correct horse battery staple',
        code: await server.codeFor(invitee.mobile),
      }),
      'invitationSignInRequired',
    );
    const accepted = await aff.acceptInvitation(invitee.client, { invite_ticket: issued.invite_ticket });
    expect(accepted).toMatchObject({ new_user: false, user_id: invitee.userId });
    expect((await memberships(boss.sid)).map((d) => d.user_id).sort()).toEqual(
      [boss.userId, invitee.userId].sort(),
    );
  });

  it('resend rotates the ticket (the old link dies), update changes name and roles, cancel kills the link', async () => {
    const boss = await managerWithReader(server);
    const invitee = await person(server);
    const first = await aff.inviteByMobile(boss.client, {
      subject_uid: boss.sid,
      contact: invitee.mobile,
      deputy_name: 'Cy',
    });
    await passCooldown();
    const again = await aff.resendInvitation(boss.client, {
      subject_uid: boss.sid,
      invite_id: first.invite_id,
    });
    expect(again.invite_ticket).not.toBe(first.invite_ticket);
    expect(again.resent_count).toBe(1);
    await refused(
      aff.checkInvitation(invitee.client, { invite_ticket: first.invite_ticket }),
      'invitationNotFound',
    );
    await refused(
      aff.acceptInvitation(invitee.client, { invite_ticket: first.invite_ticket }),
      'invitationNotFound',
    );

    const updated = await aff.updateInvitation(boss.client, {
      subject_uid: boss.sid,
      invite_id: first.invite_id,
      deputy_identity_id: first.deputy_identity_id,
      deputy_name: 'Cyrus',
      role_keys: ['reader'],
    });
    expect(updated).toMatchObject({ deputy_name: 'Cyrus', role_keys: ['reader'] });
    expect(
      (await aff.checkInvitation(invitee.client, { invite_ticket: again.invite_ticket })).role_names,
    ).toEqual(['Reader']);

    await aff.cancelInvitation(boss.client, { subject_uid: boss.sid, invite_id: first.invite_id });
    await refused(
      aff.checkInvitation(invitee.client, { invite_ticket: again.invite_ticket }),
      'invitationCancelled',
    );
    await refused(
      aff.acceptInvitation(invitee.client, { invite_ticket: again.invite_ticket }),
      'invitationCancelled',
    );
    await refused(
      aff.resendInvitation(boss.client, { subject_uid: boss.sid, invite_id: first.invite_id }),
      'invitationCancelled',
    );
    await refused(
      aff.updateInvitation(boss.client, {
        subject_uid: boss.sid,
        invite_id: first.invite_id,
        deputy_name: 'X',
      }),
      'invitationCancelled',
    );
    expect(await managersOf(server, boss.sid)).toEqual([boss.userId]);
    expect((await memberships(boss.sid)).length).toBe(1);
  });

  it('expires after INVITE_TTL_SECONDS; the list pages with the page in the path and filters by state', async () => {
    const boss = await managerWithReader(server);
    const a = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'A' });
    await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'B' });
    const page1 = await aff.listInvitations(boss.client, { subject_uid: boss.sid });
    expect(page1).toMatchObject({ page: 1, page_size: 10, total: 2, has_more: false });
    const page2 = await aff.listInvitations(boss.client, { subject_uid: boss.sid, page: 2, page_size: 1 });
    expect(page2).toMatchObject({ page: 2, page_size: 1, total: 2, has_more: false });
    expect(page2.items[0]!.deputy_name).toBe('A');

    const joiner = await person(server);
    skew += server.app.config.inviteTtlSeconds * 1000 + 1000;
    try {
      await refused(
        aff.checkInvitation(joiner.client, { invite_ticket: a.invite_ticket }),
        'invitationExpired',
      );
      await refused(
        aff.acceptInvitation(joiner.client, { invite_ticket: a.invite_ticket }),
        'invitationExpired',
      );
      const expired = await aff.listInvitations(boss.client, { subject_uid: boss.sid, state: 'expired' });
      expect(expired.total).toBe(2);
      expect(
        (await aff.listInvitations(boss.client, { subject_uid: boss.sid, state: 'pending' })).total,
      ).toBe(0);
      // Resending an expired invitation gives it a new ticket and a new expiry.
      const renewed = await aff.resendInvitation(boss.client, {
        subject_uid: boss.sid,
        invite_id: a.invite_id,
      });
      expect(renewed.state).toBe('pending');
      await aff.acceptInvitation(joiner.client, { invite_ticket: renewed.invite_ticket });
    } finally {
      skew = 0;
    }
  });

  it('the inviter cannot grant more than they hold, and needs invitation:create', async () => {
    const boss = await managerWithReader(server);
    await aff.createRole(boss.client, {
      subject_uid: boss.sid,
      role_key: 'admin',
      role_name: 'Admin',
      permissions: ['role:create', 'member:read'],
    });
    const inviter = await member(server, boss, ['invitation:create', 'member:read']);
    const plain = await member(server, boss, ['member:read']);
    await refused(
      aff.inviteByLink(inviter.client, { subject_uid: boss.sid, deputy_name: 'X', role_keys: ['admin'] }),
      'grantExceedsOwn',
    );
    await refused(
      aff.inviteByLink(plain.client, { subject_uid: boss.sid, deputy_name: 'X', role_keys: ['reader'] }),
      'permissionDenied',
    );
    await refused(
      aff.inviteByLink(inviter.client, { subject_uid: boss.sid, deputy_name: 'X', role_keys: ['nope'] }),
      'roleNotFound',
    );
    const ok = await aff.inviteByLink(inviter.client, {
      subject_uid: boss.sid,
      deputy_name: 'X',
      role_keys: ['reader'],
    });
    expect(ok.inviter_name).toBe('Member');
    expect(ok.link).toMatch(/^http:\/\/localhost:3000\/invite\?invite_ticket=/);
  });

  it('50 concurrent accepts of one link make exactly one membership', async () => {
    const boss = await managerWithReader(server);
    const link = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'Racer' });
    const people = await Promise.all(Array.from({ length: 5 }, () => person(server)));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        aff.acceptInvitation(people[i % people.length]!.client, { invite_ticket: link.invite_ticket }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === 'rejected')
        expect((o.reason as { error_code: number }).error_code).toBe(OrganisationErrorCode.invitationUsed);
    expect((await memberships(boss.sid)).length).toBe(2);
  });

  it('by workplace chat: delivered to the webhook on loopback with its own template; the link works once for whoever holds it', async () => {
    const boss = await managerWithReader(server, 'Chat Co');
    const issued = await aff.inviteByChat(boss.client, {
      subject_uid: boss.sid,
      contact: 'wx-ada',
      deputy_name: 'Ada',
    });
    const message = chats.find((c) => c.to === 'wx-ada')!;
    expect(message).toMatchObject({
      template: 'chat_invitation',
      language: 'en',
      link: issued.link,
      authorization: 'Bearer chat-secret',
      params: { organisation: 'Chat Co', inviter: 'Boss', link: issued.link },
    });
    expect(message.text).toContain(issued.link);
    // A link invitation needs an account: signed out, it is refused.
    await refused(
      aff.acceptInvitation(server.sdkBrowser().client(), { invite_ticket: issued.invite_ticket }),
      'invitationSignInRequired',
    );
    const holder = await person(server);
    await aff.acceptInvitation(holder.client, { invite_ticket: issued.invite_ticket });
    await refused(
      aff.acceptInvitation((await person(server)).client, { invite_ticket: issued.invite_ticket }),
      'invitationUsed',
    );
  });

  it('another subject sees none of it; made-up tickets and ids are refused alike', async () => {
    const boss = await managerWithReader(server);
    const rival = await managerWithReader(server);
    const issued = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'Z' });
    await refused(aff.listInvitations(rival.client, { subject_uid: boss.sid }), 'subjectNotFound');
    await refused(
      aff.cancelInvitation(rival.client, { subject_uid: boss.sid, invite_id: issued.invite_id }),
      'subjectNotFound',
    );
    await refused(
      aff.cancelInvitation(rival.client, { subject_uid: rival.sid, invite_id: issued.invite_id }),
      'invitationNotFound',
    );
    await refused(aff.checkInvitation(rival.client, { invite_ticket: 'x'.repeat(43) }), 'invitationNotFound');
    await refused(aff.checkInvitation(rival.client, { invite_ticket: 'short' }), 'invitationNotFound');
    expect((await aff.listInvitations(boss.client, { subject_uid: boss.sid })).items[0]!.state).toBe(
      'pending',
    );
  });

  it('a cancelling account cannot join; a removed or departed member loses the identity sessions at once', async () => {
    const boss = await managerWithReader(server);
    const leaving = await person(server);
    await server.app.db
      .updateTable('users')
      .set({ cancel_requested_at: Date.now() })
      .where('id', '=', leaving.userId)
      .execute();
    const link = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'L' });
    await refused(
      aff.acceptInvitation(leaving.client, { invite_ticket: link.invite_ticket }),
      'invitationAccountClosed',
    );

    const removed = await person(server);
    const again = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'R' });
    const joined = await aff.acceptInvitation(removed.client, { invite_ticket: again.invite_ticket });
    await aff.deleteDeputy(boss.client, {
      sec_subject_uid: boss.sid,
      user_identity_id: joined.org.user_identity_id,
    });
    await refused(accountInfo(removed.client), NOT_LOGGED_IN);
    // The spent ticket does not bring the id back.
    await refused(
      aff.acceptInvitation((await person(server)).client, { invite_ticket: again.invite_ticket }),
      'invitationUsed',
    );

    const departing = await person(server);
    const third = await aff.inviteByLink(boss.client, { subject_uid: boss.sid, deputy_name: 'D' });
    await aff.acceptInvitation(departing.client, { invite_ticket: third.invite_ticket });
    await aff.leaveSubject(departing.client, { sec_subject_uid: boss.sid });
    await refused(accountInfo(departing.client), NOT_LOGGED_IN);
    await refused(aff.leaveSubject(boss.client, { sec_subject_uid: boss.sid }), 'managerProtected');
    expect((await memberships(boss.sid)).map((d) => d.user_id)).toEqual([boss.userId]);
  });
});

describe('manager transfer', () => {
  /** Steps 1-2 for the manager: the code to their mobile and the ticket it buys. */
  async function oldTicket(boss: Manager) {
    await passCooldown();
    await aff.sendOldManagerCode(boss.client, { subject_uid: boss.sid });
    return (
      await aff.verifyOldManager(boss.client, {
        subject_uid: boss.sid,
        code: await server.codeFor(boss.mobile),
      })
    ).transfer_ticket;
  }

  it('goes through every step: both verify by code, the commit swaps the flag, both see the pending transfer', async () => {
    const boss = await managerWithReader(server);
    const heir = await member(server, boss, ['member:read']);
    await refused(aff.sendOldManagerCode(heir.client, { subject_uid: boss.sid }), 'permissionDenied');
    const ticketA = await oldTicket(boss);
    const candidate = await aff.checkNewManager(boss.client, {
      subject_uid: boss.sid,
      user_identity_id: heir.identity,
    });
    expect(candidate).toMatchObject({
      user_identity_id: heir.identity,
      deputy_name: 'Member',
      channel: 'mobile',
    });
    expect(candidate.contact).not.toBe(heir.mobile);
    await refused(
      aff.checkNewManager(boss.client, { subject_uid: boss.sid, user_identity_id: 'nobody' }),
      'memberNotFound',
    );

    // The heir cannot spend the manager's ticket.
    await refused(
      aff.startManagerTransfer(heir.client, {
        subject_uid: boss.sid,
        transfer_ticket: ticketA,
        user_identity_id: heir.identity,
      }),
      'permissionDenied',
    );
    const pending = await aff.startManagerTransfer(boss.client, {
      subject_uid: boss.sid,
      transfer_ticket: ticketA,
      user_identity_id: heir.identity,
    });
    expect(pending).toMatchObject({ role: 'from', to_identity_id: heir.identity, channel: 'mobile' });
    // Single use: the ticket is spent.
    await refused(
      aff.startManagerTransfer(boss.client, {
        subject_uid: boss.sid,
        transfer_ticket: ticketA,
        user_identity_id: heir.identity,
      }),
      'transferTicketInvalid',
    );
    expect((await aff.pendingManagerTransfer(heir.client, { subject_uid: boss.sid })).transfer).toMatchObject(
      {
        role: 'to',
        from_name: 'Boss',
      },
    );
    expect((await aff.pendingManagerTransfer(boss.client, { subject_uid: boss.sid })).transfer?.role).toBe(
      'from',
    );
    // The open transfer blocks cancellation on both sides.
    for (const side of [boss, heir]) {
      const check = await cancelCheck<{ blockers: { key: string }[] }>(side.client);
      expect(check.blockers.map((b) => b.key)).toContain('open_transfer');
    }

    // The manager cannot do the new manager's part.
    await refused(
      aff.verifyNewManager(boss.client, { subject_uid: boss.sid, code: '123456' }),
      'transferNotFound',
    );
    const code = await server.codeFor(heir.mobile);
    const { transfer_ticket: ticketB } = await aff.verifyNewManager(heir.client, {
      subject_uid: boss.sid,
      code,
    });
    // A ticket is bound to its person: the old manager cannot commit with it.
    expect(await managersOf(server, boss.sid)).toEqual([boss.userId]);
    const done = await aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket: ticketB });
    expect(done).toMatchObject({ user_identity_id: heir.identity, is_manager: true });
    expect(await managersOf(server, boss.sid)).toEqual([heir.userId]);
    await refused(
      aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket: ticketB }),
      'transferTicketInvalid',
    );
    // Both sides see the new manager.
    for (const side of [boss, heir])
      expect(await aff.pendingManagerTransfer(side.client, { subject_uid: boss.sid })).toEqual({
        transfer: null,
        manager: { user_identity_id: heir.identity, deputy_name: 'Member' },
      });
    expect((await aff.userPermissions(boss.client, { subject_uid: boss.sid })).is_manager).toBe(false);
  });

  it('another person’s use leaves a ticket alone; a ticket past its life is refused', async () => {
    const boss = await managerWithReader(server);
    const heir = await member(server, boss, ['member:read']);
    await aff.startManagerTransfer(boss.client, {
      subject_uid: boss.sid,
      transfer_ticket: await oldTicket(boss),
      user_identity_id: heir.identity,
    });
    const { transfer_ticket } = await aff.verifyNewManager(heir.client, {
      subject_uid: boss.sid,
      code: await server.codeFor(heir.mobile),
    });
    // Another person's use matches nothing, and leaves the ticket alone (nobody can burn it for them).
    await refused(
      aff.transferManager(boss.client, { subject_uid: boss.sid, transfer_ticket }),
      'transferTicketInvalid',
    );

    await passCooldown();
    await aff.sendNewManagerCode(heir.client, { subject_uid: boss.sid });
    const late = await aff.verifyNewManager(heir.client, {
      subject_uid: boss.sid,
      code: await server.codeFor(heir.mobile),
    });
    skew += 6 * 60_000;
    try {
      await refused(
        aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket: late.transfer_ticket }),
        'transferTicketInvalid',
      );
    } finally {
      skew = 0;
    }
    expect(await managersOf(server, boss.sid)).toEqual([boss.userId]);
    await aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket });
    expect(await managersOf(server, boss.sid)).toEqual([heir.userId]);
  });

  it('either side can abandon; the tickets die with it', async () => {
    const boss = await managerWithReader(server);
    const heir = await member(server, boss, ['member:read']);
    await aff.startManagerTransfer(boss.client, {
      subject_uid: boss.sid,
      transfer_ticket: await oldTicket(boss),
      user_identity_id: heir.identity,
    });
    const { transfer_ticket } = await aff.verifyNewManager(heir.client, {
      subject_uid: boss.sid,
      code: await server.codeFor(heir.mobile),
    });
    expect(await aff.abandonManagerTransfer(boss.client, { subject_uid: boss.sid })).toEqual({
      abandoned: true,
    });
    await refused(
      aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket }),
      'transferNotFound',
    );
    await refused(aff.abandonManagerTransfer(heir.client, { subject_uid: boss.sid }), 'transferNotFound');

    await aff.startManagerTransfer(boss.client, {
      subject_uid: boss.sid,
      transfer_ticket: await oldTicket(boss),
      user_identity_id: heir.identity,
    });
    const bystander = await member(server, boss, ['member:read']);
    await refused(
      aff.abandonManagerTransfer(bystander.client, { subject_uid: boss.sid }),
      'transferNotFound',
    );
    expect(
      (await aff.pendingManagerTransfer(bystander.client, { subject_uid: boss.sid })).transfer,
    ).toBeNull();
    expect(await aff.abandonManagerTransfer(heir.client, { subject_uid: boss.sid })).toEqual({
      abandoned: true,
    });
    expect(await managersOf(server, boss.sid)).toEqual([boss.userId]);
  });

  it('exactly one manager under concurrent transfers: one pending transfer per subject, one commit per ticket', async () => {
    const boss = await managerWithReader(server);
    const heirs = await Promise.all([
      member(server, boss, ['member:read']),
      member(server, boss, ['member:read']),
    ]);
    const ticket1 = await oldTicket(boss);
    const ticket2 = await oldTicket(boss);
    const starts = await Promise.allSettled(
      heirs.map((h, i) =>
        aff.startManagerTransfer(boss.client, {
          subject_uid: boss.sid,
          transfer_ticket: i === 0 ? ticket1 : ticket2,
          user_identity_id: h.identity,
        }),
      ),
    );
    expect(starts.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    const named = (
      starts.find((s) => s.status === 'fulfilled') as PromiseFulfilledResult<aff.PendingTransfer>
    ).value;
    const heir = heirs.find((h) => h.identity === named.to_identity_id)!;
    await passCooldown();
    await aff.sendNewManagerCode(heir.client, { subject_uid: boss.sid });
    const code = await server.codeFor(heir.mobile);
    const { transfer_ticket } = await aff.verifyNewManager(heir.client, { subject_uid: boss.sid, code });
    const commits = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket }),
      ),
    );
    expect(commits.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    expect(await managersOf(server, boss.sid)).toEqual([heir.userId]);
  });
});
