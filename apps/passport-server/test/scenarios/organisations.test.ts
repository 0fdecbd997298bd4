import { accountInfo, cancelCheck, cancelConfirm, cancelRequest } from '@portico/account-sdk';
import type { AuditEntry } from '@portico/account-sdk/protocol';
import * as aff from '@portico/affiliate-sdk';
import { describe, expect, it } from 'vitest';
import { manager, member, type Person, person, role } from '../sdk/organisation-helpers';
import { passCooldown } from '../support/flows';
import { rejectsWith } from '../support/sdk-browser';
import { SCENARIO_TIMEOUT_MS, scenarioServer } from './harness';

/**
 * Organisations as people use them together, through the real SDKs on a real port: a chain of
 * invitations, and a manager who wants to leave Portico altogether.
 */

const server = scenarioServer({}, { limits: { sendCooldownMs: 5 } });

/** `who` joins by a link `inviter` issued with these roles; answers their identity in the subject. */
async function invitedBy(inviter: Person, who: Person, sid: string, name: string, roleKeys: string[]) {
  const link = await aff.inviteByLink(inviter.client, {
    subject_uid: sid,
    deputy_name: name,
    role_keys: roleKeys,
  });
  const joined = await aff.acceptInvitation(who.client, { invite_ticket: link.invite_ticket });
  expect(joined.org).toMatchObject({ sec_subject_uid: sid, deputy_name: name });
  return joined.org.user_identity_id;
}

/**
 * A manager invites Ada with a role that lets her invite; Ada invites Grace. Ada and Grace sign in
 * meanwhile, as people do, not waiting for each other.
 */
async function invitationChain(name: string) {
  const [boss, ada, grace] = await Promise.all([manager(server(), name), person(server()), person(server())]);
  await Promise.all([
    role(boss, 'inviter', ['invitation:create', 'member:read']),
    role(boss, 'reader', ['member:read']),
  ]);
  const adaIdentity = await invitedBy(boss, ada, boss.sid, 'Ada', ['inviter']);
  const graceIdentity = await invitedBy(ada, grace, boss.sid, 'Grace', ['reader']);
  return {
    boss,
    ada: { ...ada, identity: adaIdentity },
    grace: { ...grace, identity: graceIdentity },
  };
}

describe('a chain of invitations', () => {
  it(
    'a manager invites a member who may invite, she invites a third, and all three see the members',
    async () => {
      const { boss, ada, grace } = await invitationChain('Chain Ltd');
      const lists = await Promise.all(
        [boss, ada, grace].map((p) => aff.listDeputies(p.client, { sec_subject_uid: boss.sid })),
      );
      for (const list of lists) {
        expect(list.total).toBe(3);
        expect(list.items.map((d) => [d.sec_user_id, d.deputy_name]).sort()).toEqual(
          [
            [boss.userId, 'Boss'],
            [ada.userId, 'Ada'],
            [grace.userId, 'Grace'],
          ].sort(),
        );
      }
      // What each holds: Ada may invite, Grace may only read.
      const [adaHolds, graceHolds] = await Promise.all(
        [ada, grace].map((p) => aff.userPermissions(p.client, { subject_uid: boss.sid })),
      );
      expect(adaHolds?.permissions.sort()).toEqual(['invitation:create', 'member:read']);
      expect(graceHolds?.permissions).toEqual(['member:read']);
    },
    SCENARIO_TIMEOUT_MS,
  );

  // Joining names the inviter's identity and the person who joined (organisation.member.joined).
  it(
    'the audit log shows who invited whom',
    async () => {
      const { boss, ada, grace } = await invitationChain('Audited Ltd');
      // The audit log is the dispatcher's copy of the events: read until both joinings are in it (the
      // scenario's own limit is the hang detector).
      let entries: AuditEntry[] = [];
      for (;;) {
        ({ entries } = await aff.listAuditLog(boss.client, { sec_subject_uid: boss.sid, count: 100 }));
        if (entries.filter((entry) => entry.type === 'organisation.member.joined').length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      /** An entry about `invitee` that names `inviter` (as the actor, or in its data). */
      const invited = (inviter: Person & { identity: string }, invitee: Person & { identity: string }) =>
        entries.some((entry) => {
          const people = [
            entry.actor.kind === 'person' || entry.actor.kind === 'identity' ? entry.actor.userId : null,
          ];
          const text = JSON.stringify(entry.data);
          const mentions = (p: Person & { identity: string }) =>
            people.includes(p.userId) ||
            entry.target_user_id === p.userId ||
            text.includes(p.userId) ||
            text.includes(p.identity);
          return mentions(inviter) && mentions(invitee);
        });
      expect(invited(boss, ada), 'the manager invited Ada').toBe(true);
      expect(invited(ada, grace), 'Ada invited Grace').toBe(true);
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe('a manager cancelling their account', () => {
  it(
    'is blocked until they hand the organisation over; after the transfer the cancellation proceeds',
    async () => {
      const boss = await manager(server(), 'Handover Ltd');
      const heir = await member(server(), boss, ['member:read']);

      const blocked = await cancelCheck<{
        can_cancel: boolean;
        blockers: { key: string; detail?: unknown }[];
      }>(boss.client);
      expect(blocked.can_cancel).toBe(false);
      expect(blocked.blockers).toEqual([
        { key: 'sole_manager', detail: { organisations: ['Handover Ltd'] } },
      ]);
      const refused = await rejectsWith(
        cancelRequest(boss.client, { way: 'mobile', send: 1 }),
        'cancelBlocked',
      );
      expect(refused.data).toMatchObject({ blockers: [{ key: 'sole_manager' }] });

      // The hand-over: the manager proves their number and names the heir; the heir proves theirs.
      await passCooldown();
      await aff.sendOldManagerCode(boss.client, { subject_uid: boss.sid });
      const { transfer_ticket: fromTicket } = await aff.verifyOldManager(boss.client, {
        subject_uid: boss.sid,
        code: await server().codeFor(boss.mobile),
      });
      await aff.startManagerTransfer(boss.client, {
        subject_uid: boss.sid,
        transfer_ticket: fromTicket,
        user_identity_id: heir.identity,
      });
      await passCooldown();
      await aff.sendNewManagerCode(heir.client, { subject_uid: boss.sid });
      const { transfer_ticket: toTicket } = await aff.verifyNewManager(heir.client, {
        subject_uid: boss.sid,
        code: await server().codeFor(heir.mobile),
      });
      await aff.transferManager(heir.client, { subject_uid: boss.sid, transfer_ticket: toTicket });
      expect((await aff.userPermissions(heir.client, { subject_uid: boss.sid })).is_manager).toBe(true);

      expect(await cancelCheck(boss.client)).toMatchObject({ can_cancel: true, blockers: [] });
      await passCooldown();
      await cancelRequest(boss.client, { way: 'mobile', send: 1 });
      const { cancel_ticket } = await cancelRequest<{ cancel_ticket: string }>(boss.client, {
        way: 'mobile',
        code: await server().codeFor(boss.mobile),
      });
      const confirmed = await cancelConfirm<{ state: string; erase_at: number }>(boss.client, {
        cancel_ticket,
      });
      expect(confirmed.state).toBe('pending');
      // Confirming signs every session out; the cooling-off period is under way.
      await rejectsWith(accountInfo(boss.client), 'notLoggedIn');
      // The organisation lives on under its new manager.
      expect((await aff.subjectInfo(heir.client, { sec_subject_uid: boss.sid })).subject_name).toBe(
        'Handover Ltd',
      );
    },
    SCENARIO_TIMEOUT_MS,
  );
});
