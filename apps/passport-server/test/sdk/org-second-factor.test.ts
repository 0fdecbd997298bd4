import {
  type AccountClient,
  accountInfo,
  getUserToken,
  passkeyFactorOptions,
  passkeyLoginOptions,
  passkeyLoginVerify,
  passkeyRegisterOptions,
  passkeyRegisterVerify,
  reverify,
  sendMobileCode,
  smsLogin,
  totpConfirm,
  totpStart,
} from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType } from '../../src/protocol';
import { SoftwareAuthenticator } from '../support/authenticator';
import { passCooldown } from '../support/flows';
import { PAGE_ORIGIN, rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { eventsOf, manager, member, refused } from './organisation-helpers';

/**
 * "Members must use a second factor" (docs/organisations.md): several people at once through the real
 * SDKs — the manager turns it on while a member without a factor acts as the organisation's identity
 * (its next call is refused with the path to enrol; after enrolling it continues), a member with a
 * passkey passes, one whose proof is older than the window steps up with the passkey, and the product
 * token follows the same rule. On SQLite and PostgreSQL (vitest.config.ts).
 */

const AUDIENCE = 'https://api.example.com';
/** Added to the real clock: the window (12 h) is passed by moving it. */
let skew = 0;
let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer(
    { userToken: { audiences: [AUDIENCE], ttlSeconds: 300, rotationSeconds: 3600 } },
    { now: () => Date.now() + skew, limits: { sendCooldownMs: 5 } },
  );
});
afterAll(async () => server?.close());

/** Registers a passkey on the person's session (signed in by SMS just now, so stepped up). */
async function addPasskey(client: AccountClient): Promise<SoftwareAuthenticator> {
  const authenticator = new SoftwareAuthenticator({ origin: PAGE_ORIGIN });
  const { options } = await passkeyRegisterOptions(client);
  await passkeyRegisterVerify(client, { credential: authenticator.create(options as never).json });
  return authenticator;
}

/** The person signed in by an SMS code on a browser of its own: a session that proved no second factor. */
async function bySms(mobile: string): Promise<AccountClient> {
  const client = server.sdkBrowser().client();
  await passCooldown();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  await smsLogin(client, { mobile, code: await server.codeFor(mobile) });
  return client;
}

/** Proves the passkey in a step-up (auth/verify with method passkey). */
async function proveWith(client: AccountClient, authenticator: SoftwareAuthenticator) {
  const { options } = await passkeyFactorOptions(client, {});
  return reverify(client, { method: 'passkey', credential: authenticator.get(options as never) });
}

const requirement = (boss: Awaited<ReturnType<typeof manager>>, on: 0 | 1) =>
  aff.setSecondFactorRequired(boss.client, { sec_subject_uid: boss.sid, require_second_factor: on });

describe('members must use a second factor', () => {
  it('refuses the next call of a member without a factor, offers enrolment, and lets them continue after it', async () => {
    const boss = await manager(server, 'Strict Ltd');
    // Without a factor of their own the manager cannot turn it on (nor lock themselves out).
    const own = await refused(requirement(boss, 1), 'secondFactorRequired');
    expect(own.data).toMatchObject({ enrol: ['passkey', 'totp'] });
    expect((await aff.subjectInfo(boss.client, { sec_subject_uid: boss.sid })).require_second_factor).toBe(0);

    const plain = await member(server, boss, ['member:read']);
    const keyed = await member(server, boss, ['member:read']);
    const keyedAuthenticator = await addPasskey(keyed.client);
    // A member holding subject:read only may not change it.
    await refused(
      aff.setSecondFactorRequired(plain.client, { sec_subject_uid: boss.sid, require_second_factor: 1 }),
      'permissionDenied',
    );
    // The member without a factor is signed in to the organisation's identity when it is turned on.
    await aff.switchMember(plain.client, { to_sec_member_id: plain.identity });

    await addPasskey(boss.client);
    const subject = await requirement(boss, 1);
    expect(subject.require_second_factor).toBe(1);
    expect(await eventsOf(server, boss.sid, 'organisation.second_factor')).toMatchObject([
      { type: 'organisation.second_factor_changed', data: { name: 'Strict Ltd', required: true } },
    ]);

    // Its next call as the identity is refused with the path to enrol; so is its product token and a
    // new switch. Its session stays (account/info answers): it can enrol from there.
    const next = await refused(
      aff.listDeputies(plain.client, { sec_subject_uid: boss.sid }),
      'secondFactorRequired',
    );
    expect(next.data).toMatchObject({ sec_subject_uid: boss.sid, enrol: ['passkey', 'totp'] });
    await refused(getUserToken(plain.client, { aud: AUDIENCE }), 'secondFactorRequired');
    await refused(
      aff.switchMember(plain.client, { to_sec_member_id: plain.identity }),
      'secondFactorRequired',
    );
    expect((await accountInfo<{ user_id: string }>(plain.client)).user_id).toBe(plain.userId);

    // It enrols an authenticator app (its first factor, proved by the app's first code) and continues.
    const started = await totpStart(plain.client);
    const code = new TOTP({ secret: Secret.fromBase32(started.secret), period: 30 }).generate({
      timestamp: Date.now() + skew,
    });
    await totpConfirm(plain.client, { code });
    expect((await aff.listDeputies(plain.client, { sec_subject_uid: boss.sid })).total).toBe(3);
    await aff.switchMember(plain.client, { to_sec_member_id: plain.identity });
    expect((await getUserToken(plain.client, { aud: AUDIENCE })).token).toBeTruthy();

    // The member with a passkey passes in the session that registered it (its first factor, proved);
    // on another browser signed in by SMS it steps up with it (only the factors are offered), then passes.
    await aff.switchMember(keyed.client, { to_sec_member_id: keyed.identity });
    const phone = await bySms(keyed.mobile);
    const asked = await rejectsWith(
      aff.switchMember(phone, { to_sec_member_id: keyed.identity }),
      'stepUpRequired',
    );
    expect(asked.data).toMatchObject({ methods: ['passkey'], mobile: '', has_password: false });
    await proveWith(phone, keyedAuthenticator);
    await aff.switchMember(phone, { to_sec_member_id: keyed.identity });
    expect((await aff.listDeputies(phone, { sec_subject_uid: boss.sid })).total).toBe(3);
  });

  it('takes a sign-in with the passkey as the proof; past the window it asks again', async () => {
    const boss = await manager(server, 'Window Ltd');
    const bossAuthenticator = await addPasskey(boss.client);
    await requirement(boss, 1);
    const m = await member(server, boss, ['member:read']);
    const authenticator = await addPasskey(m.client);

    // A sign-in with the passkey on another browser proves it: straight into the identity.
    const laptop = server.sdkBrowser().client();
    const { options } = await passkeyLoginOptions(laptop);
    await passkeyLoginVerify(laptop, { credential: authenticator.get(options as never) });
    await aff.switchMember(laptop, { to_sec_member_id: m.identity });
    expect((await aff.listDeputies(laptop, { sec_subject_uid: boss.sid })).total).toBe(2);

    // Thirteen hours later the proof is stale: a step-up with the passkey renews it.
    skew += 13 * 3_600_000;
    await rejectsWith(aff.listDeputies(laptop, { sec_subject_uid: boss.sid }), 'stepUpRequired');
    await proveWith(laptop, authenticator);
    expect((await aff.listDeputies(laptop, { sec_subject_uid: boss.sid })).total).toBe(2);

    // The manager proves theirs too to turn it off; then a member without a factor is not asked.
    await rejectsWith(requirement(boss, 0), 'stepUpRequired');
    await proveWith(boss.client, bossAuthenticator);
    expect((await requirement(boss, 0)).require_second_factor).toBe(0);
    const plain = await member(server, boss, ['member:read']);
    await aff.switchMember(plain.client, { to_sec_member_id: plain.identity });
    expect((await aff.listDeputies(plain.client, { sec_subject_uid: boss.sid })).total).toBe(3);
  });

  it('does not take a factor enrolled beside an existing one as the proof (a stolen password and session)', async () => {
    const boss = await manager(server, 'Careful Ltd');
    await addPasskey(boss.client);
    await requirement(boss, 1);
    const m = await member(server, boss, ['member:read']);
    await addPasskey(m.client);
    // A session signed in by SMS (the member's, or a thief's with the password) adds an app: the
    // passkey the account already had must still be proved.
    const thief = await bySms(m.mobile);
    const started = await totpStart(thief);
    const code = new TOTP({ secret: Secret.fromBase32(started.secret), period: 30 }).generate({
      timestamp: Date.now() + skew,
    });
    await totpConfirm(thief, { code });
    const asked = await rejectsWith(aff.listDeputies(thief, { sec_subject_uid: boss.sid }), 'stepUpRequired');
    expect(asked.data).toMatchObject({ methods: ['totp', 'passkey'] });
  });
});
