import {
  type AccountClient,
  listAccountActivity,
  passwordLogin,
  sendMobileCode,
  setPassword,
  smsLogin,
} from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../../src/events/outbox';
import { type AuditEntry, type AuditPageData, CodeType } from '../../src/protocol';
import { AuditPage, OrganisationAuditPage } from '../../src/schemas/audit';
import { GOOD_PASSWORD, passCooldown, until } from '../support/flows';
import { rejection, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * The audit log through the real SDKs: a person's own security activity (new-device sign-ins, failed
 * guesses, sign-in method changes), an organisation's log for the holders of audit:read (filters,
 * pages, CSV and JSON export), the operators' view, retention and erasure. Every page is checked
 * against the server's schema of it.
 */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

// The affiliate SDK's page type is the server schema's, both ways (a drift fails the typecheck).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const organisationPageMatches: Same<
  Static<typeof OrganisationAuditPage>,
  aff.OrganisationAuditPage
> = true;

const personalPage = Compile(AuditPage);
const organisationPage = Compile(OrganisationAuditPage);

async function signIn(client: AccountClient, mobile: string) {
  await passCooldown();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  return smsLogin<{ user_id: string }>(client, { mobile, code: await server.codeFor(mobile) });
}

async function person() {
  const browser = server.sdkBrowser();
  const client = browser.client();
  const mobile = freshMobile();
  const { user_id } = await signIn(client, mobile);
  return { browser, client, mobile, userId: user_id };
}

async function activity(client: AccountClient, payload = {}) {
  const page = await listAccountActivity(client, payload);
  expect(personalPage.Check(page)).toBe(true);
  return page;
}

const types = (page: AuditPageData) => page.entries.map((entry) => entry.type);

describe('a person’s own security activity', () => {
  it('shows sign-ins with the new-device flag, failed guesses and a password set, newest first', async () => {
    const me = await person();
    // The same browser again: a remembered device.
    await signIn(me.client, me.mobile);
    await setPassword(me.client, { password: GOOD_PASSWORD });
    // A stranger's wrong password on this account.
    const stranger = server.sdkBrowser().client();
    await rejection(passwordLogin(stranger, { mobile: me.mobile, password: 'not the password at all' }));
    // And a wrong code for its number.
    await passCooldown();
    await sendMobileCode(stranger, { mobile: me.mobile, type: CodeType.mobileLogin });
    const right = await server.codeFor(me.mobile);
    await rejection(
      smsLogin(stranger, { mobile: me.mobile, code: right === '000000' ? '111111' : '000000' }),
    );

    const page = await until(
      () => activity(me.client),
      (p) => p.entries.length >= 5,
      'five entries',
    );
    expect(types(page)).toEqual([
      'account.sign_in_failed',
      'account.sign_in_failed',
      'account.password_set',
      'account.signed_in',
      'account.signed_in',
    ]);
    const [wrongCode, failed, , again, first] = page.entries as AuditEntry[];
    expect(wrongCode!.data).toEqual({ method: 'mobileCode', reason: 'wrong_code' });
    expect(first!.data).toEqual({ method: 'mobileCode', newDevice: true });
    expect(again!.data).toEqual({ method: 'mobileCode', newDevice: false });
    expect(first!.actor).toEqual({ kind: 'person', userId: me.userId });
    expect(first!.ip).toBe(me.browser.address);
    expect(failed!.actor).toEqual({ kind: 'anonymous' });
    expect(failed!.data).toEqual({ method: 'password', reason: 'wrong_password' });
    // Never a password, code or token in what was recorded.
    expect(JSON.stringify(page)).not.toContain('not the password');
    expect(JSON.stringify(page)).not.toContain(right);

    // Cursor pages: three, then the rest.
    const one = await activity(me.client, { count: 3 });
    expect(one.entries).toEqual(page.entries.slice(0, 3));
    const two = await activity(me.client, { count: 3, cursor: one.next_cursor });
    expect(two.entries).toEqual(page.entries.slice(3, 5));
    expect(two.next_cursor).toBeNull();
    expect(types(await activity(me.client, { type: 'account.signed_in' }))).toEqual([
      'account.signed_in',
      'account.signed_in',
    ]);
  });

  it('shows nobody else’s activity, and nothing to a signed-out browser', async () => {
    const a = await person();
    const b = await person();
    await until(
      () => activity(a.client),
      (p) => p.entries.length === 1,
      'a’s sign-in',
    );
    const page = await until(
      () => activity(b.client),
      (p) => p.entries.length === 1,
      'b’s sign-in',
    );
    expect(page.entries[0]!.target_user_id).toBe(b.userId);
    const error = await rejection(listAccountActivity(server.sdkBrowser().client()));
    expect(error.error_code).toBe(1101);
  });
});

describe('an organisation’s audit log', () => {
  /** A manager of a new subject, and a member whose role lacks audit:read. */
  async function organisation() {
    const boss = await person();
    const subject = await aff.createSubjectByMobile(boss.client, {
      mobile: boss.mobile,
      subject_name: 'Audited Ltd',
      deputy_name: 'Boss',
    });
    const sid = subject.sec_subject_uid;
    const member = await person();
    await aff.createRole(boss.client, {
      subject_uid: sid,
      role_key: 'reader',
      role_name: 'Reader',
      permissions: ['member:read'],
    });
    const invited = await aff.createUserWithRole(boss.client, {
      subject_uid: sid,
      account: member.mobile,
      deputy_name: 'Member',
      role_key: 'reader',
    });
    await aff.acceptInvitation(member.client, { invite_ticket: invited.invite_ticket });
    return { boss, member, sid };
  }

  /** Events of the organisation as its operations record them (a type these tests cause no other way). */
  async function happen(sid: string, actor: string, target: string, at: number, names: string[]) {
    await server.app.db.transaction().execute(async (tx) => {
      await recordEvents(
        tx,
        names.map((name) => ({
          type: 'organisation.thawed' as const,
          stream: `subject:${sid}`,
          actor: { kind: 'person' as const, userId: actor },
          subjectId: sid,
          targetUserId: target,
          data: { name },
        })),
        { at, ip: '192.0.2.7' },
      );
    });
  }

  it('answers the holders of audit:read: who did what to whom, filtered, paged, with names', async () => {
    const { boss, member, sid } = await organisation();
    const t0 = Date.now();
    await happen(sid, boss.userId, member.userId, t0, ['first', 'second']);
    await happen(sid, member.userId, boss.userId, t0 + 10_000, ['third']);

    // The role the helper created is in the log too (organisation.role.created): these three are ours.
    const ours = { sec_subject_uid: sid, type: 'organisation.thawed' };
    const all = await until(
      () => aff.listAuditLog(boss.client, ours),
      (p) => p.entries.length >= 3,
      'the three entries',
    );
    expect(organisationPage.Check(all)).toBe(true);
    expect(all.entries.map((e) => e.data.name)).toEqual(['third', 'second', 'first']);
    expect(all.names).toMatchObject({ [boss.userId]: 'Boss', [member.userId]: 'Member' });

    const byActor = await aff.listAuditLog(boss.client, { ...ours, actor_user_id: boss.userId });
    expect(byActor.entries.map((e) => e.data.name)).toEqual(['second', 'first']);
    const byTarget = await aff.listAuditLog(boss.client, { ...ours, target_user_id: boss.userId });
    expect(byTarget.entries.map((e) => e.data.name)).toEqual(['third']);
    const byTime = await aff.listAuditLog(boss.client, { ...ours, from: t0 + 5_000 });
    expect(byTime.entries.map((e) => e.data.name)).toEqual(['third']);
    // A prefix: the organisation's events of every type, the role's included.
    const byType = await aff.listAuditLog(boss.client, { sec_subject_uid: sid, type: 'organisation.' });
    expect(byType.entries.map((e) => e.type)).toEqual(
      expect.arrayContaining(['organisation.thawed', 'organisation.role.created']),
    );
    const first = await aff.listAuditLog(boss.client, { ...ours, count: 2 });
    const rest = await aff.listAuditLog(boss.client, {
      ...ours,
      count: 2,
      cursor: first.next_cursor ?? '',
    });
    expect([...first.entries, ...rest.entries].map((e) => e.data.name)).toEqual(['third', 'second', 'first']);
    expect(rest.next_cursor).toBeNull();

    // A member without audit:read, and a stranger, read nothing.
    expect((await rejection(aff.listAuditLog(member.client, { sec_subject_uid: sid }))).error_code).not.toBe(
      0,
    );
    const stranger = await person();
    expect(
      (await rejection(aff.listAuditLog(stranger.client, { sec_subject_uid: sid }))).error_code,
    ).not.toBe(0);
    // Another organisation's log holds none of it.
    const other = await organisation();
    const theirs = await aff.listAuditLog(other.boss.client, { sec_subject_uid: other.sid });
    expect(theirs.entries.every((e) => e.subject_id === other.sid && e.type !== 'organisation.thawed')).toBe(
      true,
    );
  });

  it('names a member who was removed by the name they had, in every entry about them', async () => {
    const { boss, member, sid } = await organisation();
    const identity = (await aff.listDeputies(boss.client, { sec_subject_uid: sid })).items.find(
      (d) => d.sec_user_id === member.userId,
    )!;
    await aff.deleteDeputy(boss.client, {
      sec_subject_uid: sid,
      user_identity_id: identity.user_identity_id,
    });
    const page = await until(
      () => aff.listAuditLog(boss.client, { sec_subject_uid: sid, type: 'organisation.member.removed' }),
      (p) => p.entries.length === 1,
      'the removal',
    );
    expect(page.entries[0]).toMatchObject({
      type: 'organisation.member.removed',
      target_user_id: member.userId,
      data: { memberName: 'Member', roleKeys: ['reader'] },
    });
    expect(page.names).toEqual({ [boss.userId]: 'Boss', [member.userId]: 'Member' });
  });

  it('forgets the name a removed member had once they are erased, and keeps the pseudonymous entry', async () => {
    const { boss, member, sid } = await organisation();
    const identity = (await aff.listDeputies(boss.client, { sec_subject_uid: sid })).items.find(
      (d) => d.sec_user_id === member.userId,
    )!;
    await aff.deleteDeputy(boss.client, {
      sec_subject_uid: sid,
      user_identity_id: identity.user_identity_id,
    });
    const removal = { sec_subject_uid: sid, type: 'organisation.member.removed' };
    await until(
      () => aff.listAuditLog(boss.client, removal),
      (p) => p.entries.length === 1,
      'the removal',
    );
    await server.app.db
      .updateTable('users')
      .set({ cancel_requested_at: 1, cancel_erase_at: 2 })
      .where('id', '=', member.userId)
      .execute();
    expect(await server.app.eraseDueAccounts()).toContain(member.userId);
    const page = await aff.listAuditLog(boss.client, removal);
    expect(organisationPage.Check(page)).toBe(true);
    expect(page.entries[0]).toMatchObject({
      type: 'organisation.member.removed',
      target_user_id: member.userId,
      data: { memberId: identity.user_identity_id, memberName: '[erased]', roleKeys: ['reader'] },
    });
    // The log names the manager; the erased person is their pseudonymous id alone.
    expect(page.names).toEqual({ [boss.userId]: 'Boss' });
    const exported = await boss.browser.fetch(
      aff.auditExportUrl(server.baseUrl, { sec_subject_uid: sid, format: 'json' }),
    );
    expect(await exported.text()).not.toContain('"Member"');
    // What an erased person did to others keeps the others' names: only their own is theirs to erase.
    const actor = await person();
    const other = await person();
    await recordEvents(
      server.app.db,
      [
        {
          type: 'organisation.member.removed',
          stream: `subject:${sid}`,
          actor: { kind: 'person', userId: actor.userId },
          subjectId: sid,
          targetUserId: other.userId,
          data: { memberId: identity.user_identity_id, memberName: 'Other', roleKeys: [] },
        },
      ],
      { at: Date.now() },
    );
    await server.app.db
      .updateTable('users')
      .set({ cancel_requested_at: 1, cancel_erase_at: 2 })
      .where('id', '=', actor.userId)
      .execute();
    expect(await server.app.eraseDueAccounts()).toContain(actor.userId);
    const kept = await server.app.db
      .selectFrom('events')
      .select('data')
      .where('actor_user_id', '=', actor.userId)
      .where('type', '=', 'organisation.member.removed')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(kept.data)).toEqual({
      memberId: identity.user_identity_id,
      memberName: 'Other',
      roleKeys: [],
    });
  });

  it('exports the filtered log as CSV and as JSON, to the holders of audit:read only', async () => {
    const { boss, member, sid } = await organisation();
    await happen(sid, boss.userId, member.userId, Date.now(), ['=cmd()', 'with, "quotes"']);
    const ours = { sec_subject_uid: sid, type: 'organisation.thawed' };
    await until(
      () => aff.listAuditLog(boss.client, ours),
      (p) => p.entries.length >= 2,
      'the entries',
    );
    const csv = await boss.browser.fetch(aff.auditExportUrl(server.baseUrl, ours));
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="audit-log-.*\.csv"/);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('occurred_at,type,version,actor,target_user_id,subject_id,ip,data,id');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`organisation.thawed,1,${boss.userId},${member.userId},${sid},192.0.2.7`);
    // A field a spreadsheet would run as a formula is defused; quotes and commas are quoted.
    expect(lines.join('\n')).not.toMatch(/,=cmd/);
    expect(lines[1]).toContain('""name"":""with, \\""quotes\\""""');

    const json = await boss.browser.fetch(
      aff.auditExportUrl(server.baseUrl, { ...ours, format: 'json', actor_user_id: boss.userId }),
    );
    expect(json.headers.get('content-type')).toContain('application/json');
    const body = (await json.json()) as { entries: AuditEntry[] };
    expect(body.entries.map((e) => e.data.name)).toEqual(['with, "quotes"', '=cmd()']);

    const refused = await member.browser.fetch(aff.auditExportUrl(server.baseUrl, { sec_subject_uid: sid }));
    expect((await refused.json()).error_code).not.toBe(0);
  });
});

describe('operators, retention and erasure', () => {
  it('operators read every entry; nobody else does', async () => {
    const op = await person();
    const someone = await person();
    const call = (client: AccountClient, query: Record<string, string>) =>
      client.request<AuditPageData>({
        path: '/passport/web/operator/audit/',
        method: 'GET',
        data: query,
      });
    expect((await rejection(call(someone.client, {}))).error_code).not.toBe(0);
    server.app.config.operators.push(op.userId);
    try {
      const page = await until(
        () => call(op.client, { target_user_id: someone.userId }),
        (p) => p.entries.length === 1,
        'someone’s sign-in',
      );
      expect(personalPage.Check(page)).toBe(true);
      expect(page.entries[0]).toMatchObject({ type: 'account.signed_in', target_user_id: someone.userId });
    } finally {
      server.app.config.operators.splice(server.app.config.operators.indexOf(op.userId), 1);
    }
  });

  it('deletes entries past AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const me = await person();
    const old = Date.now() - (server.config.auditRetentionDays + 1) * 86_400_000;
    await recordEvents(
      server.app.db,
      [
        {
          type: 'account.password_changed',
          stream: `user:${me.userId}`,
          actor: { kind: 'person', userId: me.userId },
          targetUserId: me.userId,
          data: {},
        },
      ],
      { at: old },
    );
    await until(
      () => activity(me.client),
      (p) => p.entries.length === 2,
      'both entries',
    );
    expect(await server.app.events.sweepAuditLog()).toBeGreaterThanOrEqual(1);
    expect(types(await activity(me.client))).toEqual(['account.signed_in']);
  });

  it('erasure removes the person’s address, device and identifiers and keeps the pseudonymous record', async () => {
    const me = await person();
    await recordEvents(
      server.app.db,
      [
        {
          type: 'account.identifier_bound',
          stream: `user:${me.userId}`,
          actor: { kind: 'person', userId: me.userId },
          targetUserId: me.userId,
          data: { channel: 'email', identifier: 'm***@example.com' },
        },
      ],
      { at: Date.now(), ip: '198.51.100.9', deviceId: 'device-1' },
    );
    await until(
      () => activity(me.client),
      (p) => p.entries.length === 2,
      'both entries',
    );
    await server.app.db
      .updateTable('users')
      .set({ cancel_requested_at: 1, cancel_erase_at: 2 })
      .where('id', '=', me.userId)
      .execute();
    expect(await server.app.eraseDueAccounts()).toContain(me.userId);
    const rows = await until(
      () =>
        server.app.db.selectFrom('audit_log').selectAll().where('target_user_id', '=', me.userId).execute(),
      (r) => r.length === 3,
      'the erasure’s own entry',
    );
    expect(rows.map((row) => row.type).sort()).toEqual([
      'account.cancellation_completed',
      'account.identifier_bound',
      'account.signed_in',
    ]);
    for (const row of rows)
      expect(row).toMatchObject({ ip: null, device_id: null, target_user_id: me.userId });
    const bound = rows.find((row) => row.type === 'account.identifier_bound');
    expect(JSON.parse(bound!.data)).toEqual({ channel: 'email', identifier: '[erased]' });
    const outbox = await server.app.db
      .selectFrom('events')
      .select(['ip', 'data'])
      .where('target_user_id', '=', me.userId)
      .execute();
    expect(outbox.every((row) => row.ip === null && !row.data.includes('example.com'))).toBe(true);
  });
});
