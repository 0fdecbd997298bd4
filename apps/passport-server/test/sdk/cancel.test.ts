import {
  accountInfo,
  cancelCheck,
  cancelConfirm,
  cancelRequest,
  cancelVerifyWay,
  exportUserData,
  saveLanguage,
  setPassword,
  updateUserInfo,
  uploadAvatar,
} from '@portico/account-sdk';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, passCooldown as waitCooldown } from '../support/flows';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { DAY_MS, signedInBySms, testClock } from './profile-helpers';

/**
 * Account cancellation (issue 17, slice 3) through the real SDK: the verify ways, the blocker registry,
 * verification by code or password into a single-use cancel_ticket, the cooling-off period (signed out
 * everywhere; signing in offers abandon, which restores the account whole) and erasure after it with an
 * injected clock (a tombstone keeps the id; the mobile registers afresh).
 */

interface Check {
  can_cancel: boolean;
  blockers: { key: string; detail?: Record<string, unknown> }[];
  losses: { key: string; count: number }[];
  cooling_off_days: number;
  erase_at?: number;
}
interface Info {
  user_id: string;
  screen_name: string;
  new_user?: boolean;
  cancel_erase_at?: number;
}

const clock = testClock();
/** Accounts a test plugin declares "sole manager of an organisation" (the organisations work's blocker). */
const soleManagers = new Set<string>();
let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer(
    {},
    {
      now: clock.now,
      limits: { sendCooldownMs: 5 },
      plugins: [
        async (app: FastifyInstance) => {
          app.cancellation.addBlocker({
            key: 'sole_manager',
            check: async (_scope, user) =>
              soleManagers.has(user.id) ? { organisations: ['Example Ltd'] } : null,
          });
        },
      ],
    },
  );
});
afterAll(async () => server?.close());

/** Past the send cooldown of a number: on the injected clock (database store) and in real time (Redis). */
async function passCooldown() {
  clock.advance(1_000);
  await waitCooldown();
}

/** Verifies by SMS code to the account's own mobile; answers the cancel_ticket. */
async function ticketBySms(client: Parameters<typeof cancelRequest>[0], mobile: string) {
  await passCooldown();
  const sent = await cancelRequest<{ target: string }>(client, { way: 'mobile', send: 1 });
  expect(sent.target).not.toContain(mobile.slice(-8, -4));
  const { cancel_ticket } = await cancelRequest<{ cancel_ticket: string }>(client, {
    way: 'mobile',
    code: await server.codeFor(mobile),
  });
  return cancel_ticket;
}

describe('before confirming', () => {
  it('lists the verify ways the account has: its mobile, and its password once set', async () => {
    const { client } = await signedInBySms(server);
    const ways = await cancelVerifyWay<{ ways: { way: string; target: string }[] }>(client);
    expect(ways.ways.map((w) => w.way)).toEqual(['mobile']);
    expect(ways.ways[0]!.target).toContain('*');
    await setPassword(client, { password: GOOD_PASSWORD });
    const after = await cancelVerifyWay<{ ways: { way: string }[] }>(client);
    expect(after.ways.map((w) => w.way)).toEqual(['mobile', 'password']);
    await rejectsWith(cancelRequest(client, { way: 'email', send: 1 }), 'cancelWayUnavailable');
    await rejectsWith(cancelVerifyWay(server.sdkBrowser().client()), 'notLoggedIn');
  });

  it('says what will be lost and how long the cooling-off period is', async () => {
    const { client } = await signedInBySms(server);
    const check = await cancelCheck<Check>(client);
    expect(check).toMatchObject({ can_cancel: true, blockers: [], cooling_off_days: 15 });
    expect(check.losses.map((l) => l.key)).toEqual(
      expect.arrayContaining(['profile', 'identifiers', 'devices']),
    );
  });

  it('hands over the account data as JSON, identifiers unmasked (it is their own)', async () => {
    const { client, mobile, account } = await signedInBySms(server);
    await updateUserInfo(client, { description: 'exported text' });
    await saveLanguage(client, { language: 'en' });
    // Typed by the SDK; the answer is checked against the server's schema of it (validateResponses).
    const data = await exportUserData(client);
    expect(data.account).toMatchObject({ user_id: account.user_id, mobile });
    expect(data.profile.description).toBe('exported text');
    expect(data.profile.language).toBe('en');
    expect(data.profile_changes.map((c) => c.field)).toEqual(['description']);
  });

  it('is blocked by a registered blocker (sole manager of an organisation), before and after verifying', async () => {
    const { client, mobile, account } = await signedInBySms(server);
    const ticket = await ticketBySms(client, mobile);
    soleManagers.add(account.user_id);
    const check = await cancelCheck<Check>(client);
    expect(check.can_cancel).toBe(false);
    expect(check.blockers).toEqual([{ key: 'sole_manager', detail: { organisations: ['Example Ltd'] } }]);
    const refused = await rejectsWith(cancelConfirm(client, { cancel_ticket: ticket }), 'cancelBlocked');
    expect(refused.data).toMatchObject({ blockers: [{ key: 'sole_manager' }] });
    await rejectsWith(cancelRequest(client, { way: 'mobile', send: 1 }), 'cancelBlocked');
    expect((await accountInfo<Info>(client)).cancel_erase_at).toBeUndefined();
    soleManagers.delete(account.user_id);
    // The blocker gone (a transfer done), the ticket still works.
    await cancelConfirm(client, { cancel_ticket: ticket });
  });

  it('refuses a wrong code, a wrong password, a used ticket and another account’s ticket', async () => {
    const a = await signedInBySms(server);
    const b = await signedInBySms(server);
    await passCooldown();
    await cancelRequest(a.client, { way: 'mobile', send: 1 });
    const right = await server.codeFor(a.mobile);
    await rejectsWith(
      cancelRequest(a.client, { way: 'mobile', code: right === '000000' ? '111111' : '000000' }),
      'codeWrong',
    );
    await setPassword(a.client, { password: GOOD_PASSWORD });
    await rejectsWith(
      cancelRequest(a.client, { way: 'password', password: 'not the password' }),
      'currentPasswordWrong',
    );
    const { cancel_ticket } = await cancelRequest<{ cancel_ticket: string }>(a.client, {
      way: 'password',
      password: GOOD_PASSWORD,
    });
    await rejectsWith(cancelConfirm(b.client, { cancel_ticket }), 'ticketInvalid');
    await rejectsWith(cancelConfirm(a.client, { cancel_ticket: 'x'.repeat(43) }), 'ticketInvalid');
    await rejectsWith(cancelConfirm(a.client, {}), 'invalidParam');
    await rejectsWith(cancelConfirm(a.client, { abandon: 1 }), 'cancelNotPending');
    expect((await accountInfo<Info>(b.client)).cancel_erase_at).toBeUndefined();
  });
});

describe('the cooling-off period', () => {
  it('signs out everywhere; signing in during it offers abandon, which restores the account whole', async () => {
    const first = await signedInBySms(server);
    const { client, mobile, account } = first;
    await passCooldown();
    const elsewhere = await signedInBySms(server, mobile);
    await updateUserInfo(client, { name: 'Keeps Her Name' });
    const avatar = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    await uploadAvatar(client, { avatar: new Blob([new Uint8Array(avatar)], { type: 'image/png' }) });

    const ticket = await ticketBySms(client, mobile);
    const confirmed = await cancelConfirm<{ state: string; erase_at: number }>(client, {
      cancel_ticket: ticket,
    });
    expect(confirmed).toEqual({ state: 'pending', erase_at: clock.now() + 15 * DAY_MS });
    await rejectsWith(accountInfo(client), 'notLoggedIn');
    await rejectsWith(accountInfo(elsewhere.client), 'notLoggedIn');
    await rejectsWith(cancelConfirm(client, { cancel_ticket: ticket }), 'notLoggedIn');

    clock.advance(14 * DAY_MS);
    expect(await server.app.eraseDueAccounts()).not.toContain(account.user_id);
    await passCooldown();
    const back = await signedInBySms(server, mobile);
    expect(back.account.user_id).toBe(account.user_id);
    expect((await accountInfo<Info>(back.client)).cancel_erase_at).toBe(confirmed.erase_at);
    expect((await cancelCheck<Check>(back.client)).erase_at).toBe(confirmed.erase_at);
    await rejectsWith(cancelRequest(back.client, { way: 'mobile', send: 1 }), 'cancelAlreadyPending');
    expect(await cancelConfirm(back.client, { abandon: 1 })).toEqual({ state: 'abandoned' });

    clock.advance(2 * DAY_MS);
    // Other tests' accounts may fall due now; this one is no longer waiting.
    expect(await server.app.eraseDueAccounts()).not.toContain(account.user_id);
    const info = await accountInfo<Info & { avatar_url: string }>(back.client);
    expect(info).toMatchObject({ user_id: account.user_id, screen_name: 'Keeps Her Name' });
    expect(info.cancel_erase_at).toBeUndefined();
    expect((await fetch(`${server.baseUrl}${info.avatar_url}`)).status).toBe(200);
  });

  it('erases the data after the period, keeps a tombstone, and lets the mobile register afresh', async () => {
    const { client, mobile, account } = await signedInBySms(server);
    await updateUserInfo(client, { name: 'Gone Soon', birthday: '1980-01-02' });
    await saveLanguage(client, { language: 'en' });
    const avatar = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#654321' } })
      .png()
      .toBuffer();
    await uploadAvatar(client, { avatar: new Blob([new Uint8Array(avatar)], { type: 'image/png' }) });
    await setPassword(client, { password: GOOD_PASSWORD });
    const { cancel_ticket } = await cancelRequest<{ cancel_ticket: string }>(client, {
      way: 'password',
      password: GOOD_PASSWORD,
    });
    await cancelConfirm(client, { cancel_ticket });

    clock.advance(15 * DAY_MS + 1);
    expect(await server.app.eraseDueAccounts()).toContain(account.user_id);
    // Run again: nothing left to erase, nothing erased twice.
    expect(await server.app.eraseDueAccounts()).not.toContain(account.user_id);

    const { db } = server.app;
    const tombstone = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', account.user_id)
      .executeTakeFirstOrThrow();
    expect(tombstone).toMatchObject({
      mobile: null,
      email: null,
      username: null,
      password_hash: null,
      screen_name: '',
      description: '',
      birthday: null,
      avatar_key: null,
      language: null,
    });
    expect(Number(tombstone.erased_at)).toBeGreaterThan(0);
    for (const table of ['sessions', 'devices', 'profile_updates'] as const) {
      const rows = await db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', account.user_id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    expect(
      await db.selectFrom('images').select('key').where('owner_id', '=', account.user_id).execute(),
    ).toEqual([]);

    await passCooldown();
    const fresh = await signedInBySms(server, mobile);
    expect(fresh.account.user_id).not.toBe(account.user_id);
    expect((await accountInfo<Info>(fresh.client)).screen_name).toMatch(/^user\d{9}$/);
  });
});
