import {
  accountInfo,
  checkDefaultInfo,
  defaultAvatars,
  defaultBackgroundImages,
  downloadImageV2,
  recommendName,
  remainUpdateTimes,
  updateUserInfo,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedName } from '../../src/domain/profile/names';
import { passCooldown } from '../support/flows';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { DAY_MS, signedInBySms, testClock } from './profile-helpers';

/**
 * Profiles (issue 17, slice 1) through the real SDK: name, description, birthday (mixed on the wire),
 * gender; the update quotas with an injected clock; default info, default images and name suggestions.
 */

interface Profile {
  user_id: string;
  name: string;
  description: string;
  birthday: string;
  gender: number;
  avatar_key: string;
  avatar_url: string;
}
interface Remaining {
  remain_times: number;
  total_times: number;
  next_available_at: number;
}

const clock = testClock();
let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer(
    { profileQuotas: { 'profile.name': { times: 2, windowSeconds: 30 * 86_400 } } },
    // Redis keeps its own time for the send cooldown: a short one lets the same number sign in again.
    { now: clock.now, limits: { sendCooldownMs: 5 } },
  );
});
afterAll(async () => server?.close());

describe('profile editing', () => {
  it('changes name, description, birthday and gender; the birthday travels mixed and is stored plain', async () => {
    const { browser, client, account } = await signedInBySms(server);
    const sent: string[] = [];
    const fetchOf = browser.fetch;
    Object.defineProperty(browser, 'fetch', {
      value: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        if (request.method === 'POST') sent.push(await request.clone().text());
        return fetchOf(request);
      },
    });
    const profile = await updateUserInfo<Profile>(browser.client(), {
      name: '  Ada   Lovelace ',
      description: 'Counts things.\nLikes engines.',
      birthday: '1990-12-10',
      gender: 2,
    });
    expect(profile).toMatchObject({
      user_id: account.user_id,
      name: 'Ada Lovelace',
      description: 'Counts things.\nLikes engines.',
      birthday: '1990-12-10',
      gender: 2,
    });
    // On the wire: mix_mode=1 and the birthday as hex XOR 5, never in the clear.
    expect(sent.at(-1)).toContain('mix_mode=1');
    expect(sent.at(-1)).not.toContain('1990-12-10');
    const row = await server.app.db
      .selectFrom('users')
      .select(['screen_name', 'birthday', 'gender'])
      .where('id', '=', account.user_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ screen_name: 'Ada Lovelace', birthday: '1990-12-10', gender: 2 });
    // The account the header reads shows the new name.
    expect(await accountInfo(client)).toMatchObject({ screen_name: 'Ada Lovelace', name: 'Ada Lovelace' });
  });

  it('refuses a bad name, a blocked name, a future birthday and an impossible date, changing nothing', async () => {
    const { client, account } = await signedInBySms(server);
    await rejectsWith(updateUserInfo(client, { name: '' }), 'nameInvalid');
    await rejectsWith(updateUserInfo(client, { name: 'x'.repeat(21) }), 'nameInvalid');
    await rejectsWith(updateUserInfo(client, { name: 'zero\u200bwidth' }), 'nameInvalid');
    await rejectsWith(updateUserInfo(client, { name: 'Ａｄｍｉｎ' }), 'nameNotAllowed');
    await rejectsWith(updateUserInfo(client, { name: 'user123456789' }), 'nameNotAllowed');
    await rejectsWith(updateUserInfo(client, { birthday: '2999-01-01' }), 'profileFieldInvalid');
    await rejectsWith(updateUserInfo(client, { birthday: '2001-02-30' }), 'profileFieldInvalid');
    // One bad field refuses the whole change: the good name sent with it is not kept.
    await rejectsWith(updateUserInfo(client, { name: 'Fine Name', birthday: 'soon' }), 'profileFieldInvalid');
    const info = await accountInfo<{ screen_name: string }>(client);
    expect(info.screen_name).toBe(account.screen_name);
  });

  it('counts name changes against the quota, says when the next is possible, and frees it after the window', async () => {
    const { client, mobile } = await signedInBySms(server);
    expect(await remainUpdateTimes<Remaining>(client, { field: 'name' })).toMatchObject({
      remain_times: 2,
      total_times: 2,
      next_available_at: 0,
    });
    const first = clock.now();
    await updateUserInfo(client, { name: 'First Name' });
    clock.advance(DAY_MS);
    // Sending the same name again is not a change and costs nothing.
    await updateUserInfo(client, { name: 'First Name' });
    await updateUserInfo(client, { name: 'Second Name' });
    const left = await remainUpdateTimes<Remaining>(client, { field: 'name', field_namespace: 'profile' });
    expect(left).toMatchObject({ remain_times: 0, next_available_at: first + 30 * DAY_MS });
    const refused = await rejectsWith(updateUserInfo(client, { name: 'Third Name' }), 'updateLimitReached');
    expect(refused.data).toMatchObject({ field: 'name', next_available_at: first + 30 * DAY_MS });
    // Other fields have their own quota.
    await updateUserInfo(client, { description: 'still editable' });
    expect((await accountInfo<{ screen_name: string }>(client)).screen_name).toBe('Second Name');
    // Past the window of the first change (the session has ended by then: sign in again).
    clock.advance(29 * DAY_MS + 1);
    await passCooldown();
    const again = await signedInBySms(server, mobile);
    await updateUserInfo(again.client, { name: 'Third Name' });
    expect((await remainUpdateTimes<Remaining>(again.client, { field: 'name' })).remain_times).toBe(0);
  });

  it('forgets counted changes once no quota window reaches them', async () => {
    const { client, account } = await signedInBySms(server);
    await updateUserInfo(client, { description: 'counted' });
    const rows = () =>
      server.app.db
        .selectFrom('profile_updates')
        .select('id')
        .where('user_id', '=', account.user_id)
        .execute();
    expect(await rows()).toHaveLength(1);
    await server.app.sweepProfileUpdates();
    expect(await rows()).toHaveLength(1);
    // The longest default window is the birthday's year.
    clock.advance(366 * DAY_MS);
    expect(await server.app.sweepProfileUpdates()).toBeGreaterThanOrEqual(1);
    expect(await rows()).toHaveLength(0);
  });

  it('refuses an unknown field or namespace in remain_update_times, and needs a session', async () => {
    const { client } = await signedInBySms(server);
    await rejectsWith(remainUpdateTimes(client, { field: 'shoe_size' }), 'invalidParam');
    await rejectsWith(remainUpdateTimes(client, { field: 'name', field_namespace: 'other' }), 'invalidParam');
    await rejectsWith(remainUpdateTimes(server.sdkBrowser().client(), { field: 'name' }), 'notLoggedIn');
    await rejectsWith(updateUserInfo(server.sdkBrowser().client(), { name: 'Nobody' }), 'notLoggedIn');
  });
});

describe('defaults', () => {
  it('tells which fields still hold their generated defaults, until the person chooses', async () => {
    const { client } = await signedInBySms(server);
    expect(await checkDefaultInfo(client)).toEqual({
      scene: 'normal',
      is_default: true,
      default_fields: ['name', 'avatar'],
    });
    await updateUserInfo(client, { name: 'Chosen Name' });
    const avatars = await defaultAvatars<{ images: { key: string; url: string }[] }>(client);
    await updateUserInfo(client, { avatar_key: avatars.images[2]!.key });
    expect(await checkDefaultInfo(client, { scene: 'profile' })).toEqual({
      scene: 'profile',
      is_default: false,
      default_fields: [],
    });
    expect((await accountInfo<{ avatar_url: string }>(client)).avatar_url).toBe(avatars.images[2]!.url);
  });

  it("lists the app's default avatars and backgrounds, served as real images anyone may fetch and cache", async () => {
    const { client } = await signedInBySms(server);
    const avatars = await defaultAvatars<{ images: { key: string; url: string }[] }>(client);
    const backgrounds = await defaultBackgroundImages<{ images: { key: string; url: string }[] }>(client);
    expect(avatars.images).toHaveLength(6);
    expect(backgrounds.images).toHaveLength(4);
    const response = await fetch(`${server.baseUrl}${backgrounds.images[0]!.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(10);
    const info = await downloadImageV2<{ width: number; height: number }>(client, {
      key: avatars.images[0]!.key,
    });
    expect(info).toMatchObject({ width: 256, height: 256 });
  });

  it('refuses an avatar key that is neither a default nor an approved upload of this person', async () => {
    const { client } = await signedInBySms(server);
    await rejectsWith(updateUserInfo(client, { avatar_key: 'someone-elses' }), 'profileFieldInvalid');
  });

  it('suggests a few names in the requested language that pass the name rules and nobody uses', async () => {
    const { browser, client } = await signedInBySms(server);
    const { names } = await recommendName<{ names: string[] }>(client);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(4);
    for (const name of names) {
      expect(isAllowedName(name)).toBe(true);
      expect(name).toMatch(/^[A-Za-z]+\d{2}$/);
    }
    const zh = await recommendName<{ names: string[] }>(browser.client('web', 'zh'));
    expect(zh.names.every((name) => /^\p{Script=Han}+\d{2}$/u.test(name))).toBe(true);
    // A suggestion can be taken at once.
    await updateUserInfo(client, { name: names[0] });
  });
});
