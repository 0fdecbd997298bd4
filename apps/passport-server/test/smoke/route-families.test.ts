import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  accountInfo,
  checkMobileCode,
  logout,
  passwordLogin,
  registerByMobile,
  sendMobileCode,
  smsLogin,
  uploadAvatar,
} from '@portico/account-sdk';
import * as aff from '@portico/affiliate-sdk';
import * as client from 'openid-client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_PAGE } from '../../src/domain/open-auth/provider';
import { CodeType, paths } from '../../src/protocol';
import { managersOf } from '../sdk/organisation-helpers';
import { signedInBySms } from '../sdk/profile-helpers';
import { GOOD_PASSWORD, passCooldown, warmPasswordEstimator } from '../support/flows';
import { follow, pkce, randomState, rpOptions, useInject } from '../support/open-auth-client';
import { rejection, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { Browser, backend, freshMobile } from '../support/server';

/**
 * One realistic scenario per route family on PostgreSQL and Redis together (the services project): the
 * feature suites run on the embedded default (SQLite + its store) only, and the storage contracts
 * (test/contracts) hold each backend's behaviours one by one; these hold that the families still work
 * end to end on the scaled-out deployment's storage, through the real SDKs on a real port.
 */

const ORIGIN = 'http://localhost:3000';
const ISSUER = `${ORIGIN}/oauth`;
const REGISTRATION_TOKEN = 'initial-access-token-0123456789abcdef';
const REDIRECT = 'https://app.example.com/callback';
const NOT_LOGGED_IN = 1101;

let server: SdkServer;
let webDist: string;
beforeAll(async () => {
  await warmPasswordEstimator();
  webDist = mkdtempSync(join(tmpdir(), 'portico-smoke-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><body></body></html>');
  writeFileSync(join(webDist, 'routes.json'), JSON.stringify({ routes: ['/', '/login', CONSENT_PAGE] }));
  server = await startSdkServer(
    {
      openAuth: { registrationToken: REGISTRATION_TOKEN, scopes: [] },
      apps: [{ name: 'web', mount: '/', dist: webDist }],
    },
    { limits: { sendCooldownMs: 5 } },
  );
}, 90_000);
afterAll(async () => {
  await server?.close();
  if (webDist) rmSync(webDist, { recursive: true, force: true });
});

it('runs on the storage the project names', () => {
  expect(server.app.database.dialect).toBe(process.env.DATABASE_URL ? 'postgres' : 'sqlite');
  expect(server.config.redisUrl !== undefined).toBe(Boolean(process.env.REDIS_URL));
  expect(backend).toBe('services');
});

/** A person signed in by SMS code (a new account), with a browser of their own. */
async function person() {
  const { client, mobile, account } = await signedInBySms(server);
  return { client, mobile, userId: account.user_id };
}

describe('sign-in', () => {
  it('registers by code with a password, signs out, signs in by password and by code, and the session follows', async () => {
    const first = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(first, { mobile, type: CodeType.register });
    const { verify_ticket } = await checkMobileCode<{ verify_ticket: string }>(first, {
      mobile,
      type: CodeType.register,
      code: await server.codeFor(mobile),
    });
    const account = await registerByMobile<{ user_id: string }>(first, {
      mobile,
      verify_ticket,
      password: GOOD_PASSWORD,
    });
    expect((await accountInfo<{ user_id: string }>(first)).user_id).toBe(account.user_id);
    await logout(first, { not_redirect: 1 });
    expect((await rejection(accountInfo(first))).error_code).toBe(NOT_LOGGED_IN);

    const byPassword = server.sdkBrowser().client();
    expect(
      (await passwordLogin<{ user_id: string }>(byPassword, { mobile, password: GOOD_PASSWORD })).user_id,
    ).toBe(account.user_id);
    expect(
      (
        await rejection(
          passwordLogin(server.sdkBrowser().client(), { mobile, password: 'not the password 1' }),
        )
      ).error_code,
    ).not.toBe(0);

    const byCode = server.sdkBrowser().client();
    await passCooldown();
    await sendMobileCode(byCode, { mobile, type: CodeType.mobileLogin });
    const code = await server.codeFor(mobile);
    expect((await smsLogin<{ user_id: string }>(byCode, { mobile, code })).user_id).toBe(account.user_id);
    // The code was spent: a second use is refused.
    expect((await rejection(smsLogin(server.sdkBrowser().client(), { mobile, code }))).error_code).not.toBe(
      0,
    );

    // Signing one browser out leaves the other signed in.
    await logout(byPassword, { not_redirect: 1 });
    expect((await rejection(accountInfo(byPassword))).error_code).toBe(NOT_LOGGED_IN);
    expect((await accountInfo<{ user_id: string }>(byCode)).user_id).toBe(account.user_id);
  });
});

describe('organisations', () => {
  it('creates a subject, invites a member who joins, changes their roles, and hands the subject over', async () => {
    const boss = await person();
    const subject = await aff.createSubjectByMobile(boss.client, {
      subject_name: 'Smoke Ltd',
      deputy_name: 'Boss',
    });
    const sid = subject.sec_subject_uid;
    await aff.createRole(boss.client, {
      subject_uid: sid,
      role_key: 'reader',
      role_name: 'Reader',
      permissions: ['member:read'],
    });
    await aff.createRole(boss.client, {
      subject_uid: sid,
      role_key: 'editor',
      role_name: 'Editor',
      permissions: ['member:update'],
    });

    const invitation = await aff.inviteByLink(boss.client, {
      subject_uid: sid,
      deputy_name: 'Ada',
      role_keys: ['reader'],
    });
    const member = await person();
    const joined = await aff.acceptInvitation(member.client, { invite_ticket: invitation.invite_ticket });
    expect(joined.org).toMatchObject({
      sec_subject_uid: sid,
      deputy_name: 'Ada',
      permissions: ['member:read'],
    });
    const identity = joined.org.user_identity_id;
    // A spent ticket.
    expect(
      (
        await rejection(
          aff.acceptInvitation((await person()).client, { invite_ticket: invitation.invite_ticket }),
        )
      ).error_code,
    ).not.toBe(0);

    await aff.addUserRoles(boss.client, {
      subject_uid: sid,
      role_key: 'editor',
      sec_user_identity_ids: [identity],
    });
    const permissions = async () =>
      (await accountInfo<{ org: { permissions: string[] } }>(member.client)).org.permissions.sort();
    expect(await permissions()).toEqual(['member:read', 'member:update']);
    await aff.banRole(boss.client, { subject_uid: sid, role_key: 'editor' });
    expect(await permissions()).toEqual(['member:read']);

    // The hand-over: the manager proves their number, names the heir, the heir proves theirs and commits.
    await passCooldown();
    await aff.sendOldManagerCode(boss.client, { subject_uid: sid });
    const { transfer_ticket: fromTicket } = await aff.verifyOldManager(boss.client, {
      subject_uid: sid,
      code: await server.codeFor(boss.mobile),
    });
    await aff.startManagerTransfer(boss.client, {
      subject_uid: sid,
      transfer_ticket: fromTicket,
      user_identity_id: identity,
    });
    const { transfer_ticket: toTicket } = await aff.verifyNewManager(member.client, {
      subject_uid: sid,
      code: await server.codeFor(member.mobile),
    });
    expect(
      await aff.transferManager(member.client, { subject_uid: sid, transfer_ticket: toTicket }),
    ).toMatchObject({
      user_identity_id: identity,
      is_manager: true,
    });
    expect((await aff.userPermissions(boss.client, { subject_uid: sid })).is_manager).toBe(false);
    expect(await managersOf(server, sid)).toEqual([member.userId]);
    // The new manager freezes and thaws the old one; the old one, no longer the manager, leaves.
    const old = (await aff.listDeputies(member.client, { sec_subject_uid: sid })).items.find(
      (d) => d.sec_user_id === boss.userId,
    )!;
    const on = { sec_subject_uid: sid, user_identity_id: old.user_identity_id };
    expect((await aff.freezeDeputy(member.client, { ...on, is_frozen: 1 })).is_frozen).toBe(1);
    await aff.freezeDeputy(member.client, { ...on, is_frozen: 0 });
    expect(await aff.leaveOrganisation(boss.client, { sec_subject_uid: sid })).toEqual({ left: true });
    expect((await aff.listDeputies(member.client, { sec_subject_uid: sid })).total).toBe(1);
    const events = await server.app.db
      .selectFrom('events')
      .select('type')
      .where('stream', '=', `subject:${sid}`)
      .where('type', 'in', ['organisation.created', 'organisation.member.frozen', 'organisation.member.left'])
      .orderBy('position')
      .execute();
    expect(events.map((row) => row.type)).toEqual([
      'organisation.created',
      'organisation.member.frozen',
      'organisation.member.left',
    ]);
  });
});

describe('open authorization', () => {
  it('a stock client registers, a person approves, and the client gets, refreshes and loses tokens', async () => {
    const registered = await client.dynamicClientRegistration(
      new URL(ISSUER),
      {
        client_name: 'Smoke App',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      undefined,
      { initialAccessToken: REGISTRATION_TOKEN, ...rpOptions(server.app) },
    );
    const { client_id, client_secret } = registered.clientMetadata();
    const secret = String(client_secret);
    const config = useInject(
      await client.discovery(
        new URL(ISSUER),
        client_id,
        { client_secret: secret },
        client.ClientSecretBasic(secret),
        rpOptions(server.app),
      ),
      server.app,
    );

    const browser = new Browser(server.app);
    const mobile = freshMobile();
    await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
    const signedIn = await browser.post(paths.web.smsLogin, { mobile, code: await server.codeFor(mobile) });
    const userId = signedIn.body.data.user_id as string;

    const { verifier, challenge } = pkce();
    const state = randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid user_info',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
    });
    const first = await follow(browser, url.href, REDIRECT);
    expect(first.interaction).toBeTruthy();
    const decided = await browser.post(paths.open.webAuth, {
      interaction: first.interaction ?? '',
      approve: 1,
      scope: '',
    });
    expect(decided.body.status_code, JSON.stringify(decided.body)).toBe(0);
    const back = await follow(browser, decided.body.data.redirect_url, REDIRECT);
    const tokens = await client.authorizationCodeGrant(config, back.callback as URL, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()?.sub).toBe(userId);
    expect((await client.fetchUserInfo(config, tokens.access_token, userId)).sub).toBe(userId);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token as string);
    expect((await client.tokenIntrospection(config, refreshed.access_token)).active).toBe(true);
    // Reusing the first refresh token revokes the family.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await client.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
  });
});

describe('uploads', () => {
  it('re-encodes an avatar, serves it, and deletes the one it replaces', async () => {
    const { client: account, userId } = await person();
    const image = (width: number) =>
      sharp({ create: { width, height: 20, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer();
    const upload = async (width: number) =>
      uploadAvatar<{ key: string; url: string; width: number }>(account, {
        avatar: new Blob([new Uint8Array(await image(width))], { type: 'image/png' }),
      });
    const first = await upload(40);
    expect(first.width).toBe(40);
    const served = await fetch(`${server.baseUrl}${first.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect((await accountInfo<{ avatar_url: string }>(account)).avatar_url).toBe(first.url);

    const second = await upload(30);
    const keys = await server.app.db
      .selectFrom('images')
      .select('key')
      .where('owner_id', '=', userId)
      .execute();
    expect(keys.map((row) => row.key)).toEqual([second.key]);
    expect((await fetch(`${server.baseUrl}${first.url}`)).status).toBe(404);
  });
});
