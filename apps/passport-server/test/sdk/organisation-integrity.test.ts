import {
  type AccountClient,
  accountInfo,
  cancelCheck,
  cancelConfirm,
  cancelRequest,
  sendMobileCode,
  smsLogin,
} from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, OrganisationErrorCode, type OrganisationErrorName } from '../../src/protocol';
import { passCooldown } from '../support/flows';
import { rejection, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';
import { managersOf } from './organisation-helpers';
import { DAY_MS, testClock } from './profile-helpers';

/**
 * What keeps an organisation whole: a member's invitation is accepted without stalling the server (every
 * query of the acceptance runs in its transaction, which on SQLite holds the one connection); an
 * organisation never loses its only manager to a cancellation (no organisation is created or taken over
 * while one is pending, and erasure leaves a manager in place); erasure leaves no identifier of the
 * person in the invitations.
 */

const clock = testClock();
const ADDS_PER_HOUR = 8;
let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer(
    { devOutbox: 'on', inviteTtlSeconds: 30 * 86_400 },
    { limits: { sendCooldownMs: 5, memberAddsPerCallerPerHour: ADDS_PER_HOUR }, now: clock.now },
  );
});
afterAll(async () => server?.close());

/**
 * A call that must answer: a hang (the server waiting on itself) fails here instead of at the test's
 * timeout. The bound only tells a hang from an answer; a slow machine answers well within it.
 */
function answers<T>(call: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within 15 s`)), 15_000);
  });
  return Promise.race([call, hang]).finally(() => clearTimeout(timer));
}

/** The server's clock and the wall clock past a send cooldown, so each code is the newest one. */
async function nextSend() {
  clock.advance(1_000);
  await passCooldown();
}

interface Person {
  client: AccountClient;
  mobile: string;
  userId: string;
}

async function signIn(mobile = freshMobile()): Promise<Person> {
  const client = server.sdkBrowser().client();
  await nextSend();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  const account = await smsLogin<{ user_id: string }>(client, { mobile, code: await server.codeFor(mobile) });
  return { client, mobile, userId: account.user_id };
}

async function manager(name = 'Example Ltd') {
  const p = await signIn();
  const subject = await aff.createSubjectByMobile(p.client, { subject_name: name, deputy_name: 'Boss' });
  return { ...p, sid: subject.sec_subject_uid };
}
type Manager = Awaited<ReturnType<typeof manager>>;

/** A person who joins the subject by accepting an invitation (optionally with a role of these permissions). */
async function member(boss: Manager, permissions: string[] = [], inviter: AccountClient = boss.client) {
  const p = await signIn();
  const roleKeys: string[] = [];
  if (permissions.length > 0) {
    const key = `r${Math.random().toString(36).slice(2, 8)}`;
    await aff.createRole(boss.client, { subject_uid: boss.sid, role_key: key, role_name: key, permissions });
    roleKeys.push(key);
  }
  const issued = await answers(
    aff.inviteByMobile(inviter, {
      subject_uid: boss.sid,
      contact: p.mobile,
      deputy_name: 'Member',
      role_keys: roleKeys,
    }),
    'invite',
  );
  const accepted = await answers(
    aff.acceptInvitation(p.client, { invite_ticket: issued.invite_ticket }),
    'accept',
  );
  return { ...p, identity: accepted.org.user_identity_id as string };
}

async function refused(call: Promise<unknown>, name: OrganisationErrorName) {
  const error = await rejection(call);
  expect({ kind: error.kind, error_code: error.error_code }).toEqual({
    kind: 'response',
    error_code: OrganisationErrorCode[name],
  });
  expect(error.description).not.toBe('');
  return error;
}

/** Requests the cancellation by SMS code and confirms it, then signs in again during the cooling-off period. */
async function cancelPending(p: Person): Promise<Person> {
  await nextSend();
  await cancelRequest(p.client, { way: 'mobile', send: 1 });
  const { cancel_ticket } = await cancelRequest<{ cancel_ticket: string }>(p.client, {
    way: 'mobile',
    code: await server.codeFor(p.mobile),
  });
  await cancelConfirm(p.client, { cancel_ticket });
  const back = await signIn(p.mobile);
  expect(back.userId).toBe(p.userId);
  return back;
}

describe("a member's invitation", () => {
  it('is accepted, and the server answers every other request afterwards', async () => {
    const boss = await manager();
    const inviter = await member(boss, ['invitation:create', 'member:read']);
    const joiner = await member(boss, [], inviter.client);
    const members = await answers(aff.listDeputies(boss.client, { sec_subject_uid: boss.sid }), 'members');
    expect(members.items.map((m) => m.user_identity_id)).toContain(joiner.identity);

    // The server still answers: a session check and a code send of someone else.
    const bystander = await signIn();
    expect(await answers(accountInfo<{ user_id: string }>(bystander.client), 'session check')).toMatchObject({
      user_id: bystander.userId,
    });
    await nextSend();
    await answers(
      sendMobileCode(server.sdkBrowser().client(), { mobile: freshMobile(), type: CodeType.mobileLogin }),
      'code send',
    );
  });
});

describe('the only manager and a cancellation', () => {
  it('is blocked with the organisations named while the person manages one', async () => {
    const boss = await manager('Blocked Ltd');
    const check = await cancelCheck<{ can_cancel: boolean; blockers: { key: string; detail?: unknown }[] }>(
      boss.client,
    );
    expect(check.can_cancel).toBe(false);
    expect(check.blockers).toContainEqual({
      key: 'sole_manager',
      detail: { organisations: ['Blocked Ltd'] },
    });
  });

  it('refuses to create an organisation while a cancellation is pending', async () => {
    const p = await cancelPending(await signIn());
    await refused(
      aff.createSubjectByMobile(p.client, { subject_name: 'Late Ltd', deputy_name: 'Boss' }),
      'cancellationPending',
    );
    const subjects = await aff.listSubjects(p.client, {});
    expect(subjects.items).toHaveLength(0);
  });

  it('refuses to hand the organisation to a member whose cancellation is pending', async () => {
    const boss = await manager();
    const leaving = await member(boss);
    await cancelPending(leaving);
    await refused(
      aff.checkNewManager(boss.client, { subject_uid: boss.sid, user_identity_id: leaving.identity }),
      'cancellationPending',
    );
    expect(await managersOf(server, boss.sid)).toEqual([boss.userId]);
  });

  it('erasure leaves a person who manages an organisation in place, pending, until they hand it over', async () => {
    const boss = await manager('Kept Ltd');
    const stays = await member(boss);
    // A cancellation that became pending while the person manages an organisation (a race the front
    // door cannot close: the check and the confirmation are two requests).
    const now = clock.now();
    await server.app.db
      .updateTable('users')
      .set({ cancel_requested_at: now, cancel_erase_at: now + DAY_MS })
      .where('id', '=', boss.userId)
      .execute();
    clock.advance(DAY_MS + 1);
    expect(await server.app.eraseDueAccounts()).not.toContain(boss.userId);
    expect(await managersOf(server, boss.sid)).toEqual([boss.userId]);
    const user = await server.app.db
      .selectFrom('users')
      .select(['mobile', 'erased_at', 'cancel_erase_at'])
      .where('id', '=', boss.userId)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ mobile: boss.mobile, erased_at: null });
    expect(user.cancel_erase_at).not.toBeNull();
    // The reason is on the cancellation's check.
    const check = await cancelCheck<{ blockers: { key: string }[] }>(boss.client);
    expect(check.blockers.map((b) => b.key)).toContain('sole_manager');
    // The members still have their manager: one can be frozen, the manager cannot.
    await aff.freezeDeputy(boss.client, {
      sec_subject_uid: boss.sid,
      user_identity_id: stays.identity,
      is_frozen: 1,
    });
  });

  it('never removes nor freezes the only manager', async () => {
    const boss = await manager();
    const admin = await member(boss, ['member:delete', 'member:freeze', 'member:read']);
    const list = await aff.listDeputies(admin.client, { sec_subject_uid: boss.sid });
    const bossIdentity = list.items.find((d) => d.is_manager)!.user_identity_id;
    await refused(
      aff.deleteDeputy(admin.client, { sec_subject_uid: boss.sid, user_identity_id: bossIdentity }),
      'managerProtected',
    );
    await refused(
      aff.freezeDeputy(admin.client, {
        sec_subject_uid: boss.sid,
        user_identity_id: bossIdentity,
        is_frozen: 1,
      }),
      'managerProtected',
    );
    await refused(aff.leaveSubject(boss.client, { sec_subject_uid: boss.sid }), 'managerProtected');
    expect(await managersOf(server, boss.sid)).toEqual([boss.userId]);
  });
});

describe('erasure and the invitations', () => {
  it("leaves neither the person's mobile nor their id in the invitations", async () => {
    const boss = await manager();
    const leaving = await member(boss);
    // A second invitation to the same number, still pending when the person leaves (past the number's
    // send cooldown).
    clock.advance(61_000);
    await aff.inviteByMobile(boss.client, {
      subject_uid: boss.sid,
      contact: leaving.mobile,
      deputy_name: 'Again',
    });
    // Leaving ends the sessions that acted as the identity: the person signs in again to cancel.
    await aff.leaveSubject(leaving.client, { sec_subject_uid: boss.sid });
    const back = await cancelPending(await signIn(leaving.mobile));
    expect(back.userId).toBe(leaving.userId);
    clock.advance(16 * DAY_MS);
    expect(await server.app.eraseDueAccounts()).toContain(leaving.userId);
    const rows = await server.app.db
      .selectFrom('invitations')
      .select(['contact', 'accepted_by', 'state'])
      .where('subject_id', '=', boss.sid)
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.contact).not.toBe(leaving.mobile);
      expect(row.accepted_by).not.toBe(leaving.userId);
    }
    expect(rows.map((r) => r.state).sort()).toEqual(['accepted', 'cancelled']);
    // The manager's list still answers, without the contact (signed in afresh: the clock moved on).
    const again = await signIn(boss.mobile);
    const listed = await aff.listInvitations(again.client, { subject_uid: boss.sid });
    expect(listed.items).toHaveLength(2);
  });
});

/** A manager with a role `reader` of these permissions, and an add of a member with it by `account`. */
async function adder(permissions: string[] = []) {
  const boss = await manager();
  await aff.createRole(boss.client, {
    subject_uid: boss.sid,
    role_key: 'reader',
    role_name: 'Reader',
    permissions,
  });
  const add = (account: string, deputyName = 'N') =>
    aff.createUserWithRole(boss.client, {
      subject_uid: boss.sid,
      account,
      deputy_name: deputyName,
      role_key: 'reader',
    });
  return { boss, add };
}

/** What of an answer says something about the contact: every per-invitation value replaced by its type. */
const PER_INVITATION = ['invite_id', 'deputy_identity_id', 'invite_ticket', 'link', 'contact', 'expires_at'];
const shapeOf = (answer: object) =>
  Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, PER_INVITATION.includes(k) ? typeof v : v]));

describe('adding a member', () => {
  it('invites an existing account, which joins only by accepting', async () => {
    const { boss, add } = await adder(['member:read']);
    const existing = await signIn();
    const invited = await add(existing.mobile, 'Asked');
    expect(invited).toMatchObject({ channel: 'mobile', state: 'pending', role_keys: ['reader'] });
    const memberIds = async () =>
      (await aff.listDeputies(boss.client, { sec_subject_uid: boss.sid })).items.map(
        (m) => m.user_identity_id,
      );
    expect(await memberIds()).not.toContain(invited.deputy_identity_id);
    expect((await aff.listSubjects(existing.client, {})).items).toHaveLength(0);
    // The invitation went to the person's own number; they accept it.
    await aff.acceptInvitation(existing.client, { invite_ticket: invited.invite_ticket });
    expect(await memberIds()).toContain(invited.deputy_identity_id);
  });

  it('answers the same whether or not an account holds the contact; a username is refused', async () => {
    const { add } = await adder();
    const existing = await signIn();
    const known = await add(existing.mobile);
    const unknown = await add(freshMobile());
    expect(shapeOf(unknown)).toEqual(shapeOf(known));
    // A username reaches nobody without a lookup: refused before any.
    const named = await rejection(add('nobody_registered_this'));
    expect(named.error_code).toBe(ErrorCode.invalidParam);
  });

  it('charges each add to the caller: past the hourly budget it is refused', async () => {
    const { add } = await adder();
    for (let i = 0; i < ADDS_PER_HOUR; i += 1) await add(freshMobile());
    const error = await rejection(add(freshMobile()));
    expect(error.error_code).toBe(ErrorCode.rateLimited);
  });
});
