import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAuthDatabase } from '../src/domain/open-auth/adapter';
import { CONSENT_PAGE } from '../src/domain/open-auth/provider';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import {
  DEVELOPER_APP_CREATE_PATH,
  DEVELOPER_APP_DELETE_PATH,
  DEVELOPER_APP_ROTATE_PATH,
  DEVELOPER_APPS_PATH,
} from '../src/schemas/developer-apps';
import { mobileCode, signInBySms } from './support/flows';
import { follow, pathOf, pkce, randomState, rpOptions, useInject } from './support/open-auth-client';
import { type Browser, freshMobile, startServer, type TestServer } from './support/server';

/**
 * Open authorization (issue 16): Portico as the authorization server, driven by `openid-client` as a
 * stock relying party (discovery, RFC 7591 registration with the initial access token, PKCE, code,
 * refresh rotation and reuse detection, revocation, introspection, userinfo), and the refusals of
 * SECURITY.md ("OAuth provider" and the replayed incidents).
 */

const ORIGIN = 'http://localhost:3000';
const ISSUER = `${ORIGIN}/oauth`;
const REGISTRATION_TOKEN = 'initial-access-token-0123456789abcdef';
const REDIRECT = 'https://app.example.com/callback';

let server: TestServer;
/** A stand-in for the web app's build: its index.html and a route list holding the consent page. */
let webDist: string;
const WEB_INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'portico-open-auth-web-'));
  writeFileSync(join(webDist, 'index.html'), WEB_INDEX);
  writeFileSync(join(webDist, 'routes.json'), JSON.stringify({ routes: ['/', '/login', CONSENT_PAGE] }));
  server = await startServer({
    openAuth: {
      registrationToken: REGISTRATION_TOKEN,
      scopes: [{ name: 'video.list', zh: '查看你的视频', en: 'See your videos' }],
    },
    apps: [{ name: 'web', mount: '/', dist: webDist }],
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

interface App {
  config: client.Configuration;
  clientId: string;
}

/** Discovery as a stock RP would do it, for a client with this secret. */
async function discover(clientId: string, secret: string): Promise<App> {
  const config = await client.discovery(
    new URL(ISSUER),
    clientId,
    { client_secret: secret },
    client.ClientSecretBasic(secret),
    rpOptions(server.app),
  );
  return { config: useInject(config, server.app), clientId };
}

/** Registers an app through RFC 7591 with the initial access token, then discovers as a stock RP would. */
async function registerApp(name = 'Example App', redirectUri = REDIRECT): Promise<App> {
  const registered = await client.dynamicClientRegistration(
    new URL(ISSUER),
    {
      client_name: name,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    undefined,
    { initialAccessToken: REGISTRATION_TOKEN, ...rpOptions(server.app) },
  );
  const metadata = registered.clientMetadata();
  return discover(metadata.client_id, String(metadata.client_secret));
}

/** A person's authorization of an app through the consent page's calls; answers the callback and checks. */
async function authorize(
  app: App,
  browser: Browser,
  options: { scope?: string; optional?: string; keep?: string; approve?: 0 | 1 } = {},
) {
  const { verifier, challenge } = pkce();
  const state = randomState();
  const url = client.buildAuthorizationUrl(app.config, {
    redirect_uri: REDIRECT,
    scope: options.scope ?? 'openid user_info',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...(options.optional ? { optional_scope: options.optional } : {}),
  });
  const first = await follow(browser, url.href, REDIRECT);
  expect(first.interaction, 'the provider sends the person to the authorization page').toBeTruthy();
  const decided = await browser.post(paths.open.webAuth, {
    interaction: first.interaction ?? '',
    approve: options.approve ?? 1,
    scope: options.keep ?? '',
  });
  expect(decided.body.status_code, JSON.stringify(decided.body)).toBe(0);
  const back = await follow(browser, decided.body.data.redirect_url, REDIRECT);
  expect(back.callback, 'the provider redirects to the app').toBeTruthy();
  return { callback: back.callback as URL, verifier, state, interaction: first.interaction as string };
}

const redeem = (app: App, flow: { callback: URL; verifier: string; state: string }) =>
  client.authorizationCodeGrant(app.config, flow.callback, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
  });

/** The OAuth error of a refused call (openid-client's ResponseBodyError), or 'success'. */
async function outcome(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'success';
  } catch (error) {
    // A 401 with WWW-Authenticate (a client that fails to authenticate) is openid-client's challenge error.
    const challenge = (error as { cause?: { parameters?: { error?: string } }[] }).cause;
    const fromChallenge = Array.isArray(challenge) ? challenge[0]?.parameters?.error : undefined;
    return String((error as { error?: string }).error ?? fromChallenge ?? (error as Error).message);
  }
}

/** The app events of a person's stream, oldest first. */
const appEvents = async (userId: string) =>
  (
    await server.app.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream', '=', `user:${userId}`)
      .where('type', 'in', ['account.app_authorized', 'account.app_revoked'])
      .orderBy('position')
      .execute()
  ).map((row) => ({ type: row.type, data: JSON.parse(row.data) }));

const active = async (app: App, token: string) => (await client.tokenIntrospection(app.config, token)).active;

describe('plan basic (oidcc-basic): code + PKCE, userinfo, introspection, refresh rotation, revocation', () => {
  it('discovers the provider at the locations derived from the issuer PUBLIC_ORIGIN/oauth, and nowhere else', async () => {
    // A document at the origin's own well-known path would name an issuer other than its location.
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const answer = await server.app.inject({ method: 'GET', url: path });
      expect(answer.statusCode, path).toBe(404);
    }
    for (const path of [
      '/oauth/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server/oauth',
      '/.well-known/openid-configuration/oauth',
    ]) {
      const answer = await server.app.inject({ method: 'GET', url: path });
      expect(answer.statusCode, path).toBe(200);
      const document = answer.json();
      expect(document.issuer).toBe(ISSUER);
      expect(document.code_challenge_methods_supported).toEqual(['S256']);
      expect(document.response_types_supported).toEqual(['code']);
      expect(document.grant_types_supported).toEqual([
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ]);
      expect(document.device_authorization_endpoint).toBe(`${ISSUER}/device/auth`);
      expect(document.registration_endpoint).toBe(`${ISSUER}/reg`);
    }
    const jwks = await server.app.inject({ method: 'GET', url: '/oauth/jwks' });
    const keys = jwks.json().keys as Record<string, unknown>[];
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.d).toBeUndefined();
  });

  it('registers a client only with the initial access token (RFC 7591)', async () => {
    const body = JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Sneaky' });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef0123']) {
      const refused = await server.app.inject({
        method: 'POST',
        url: '/oauth/reg',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        payload: body,
      });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
    }
    const app = await registerApp();
    expect(app.clientId).toMatch(/^[\w-]{10,}$/);
  });

  it('code + PKCE, userinfo, introspection, refresh rotation; a reused refresh token revokes the family', async () => {
    const app = await registerApp();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const tokens = await redeem(app, await authorize(app, browser));
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.claims()?.sub).toBe(userId);
    expect(tokens.claims()?.iss).toBe(ISSUER);

    const me = await client.fetchUserInfo(app.config, tokens.access_token, userId);
    expect(me.sub).toBe(userId);
    expect(typeof me.name).toBe('string');

    const introspected = await client.tokenIntrospection(app.config, tokens.access_token);
    expect(introspected).toMatchObject({ active: true, sub: userId, client_id: app.clientId });

    const refreshed = await client.refreshTokenGrant(app.config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await active(app, refreshed.access_token)).toBe(true);

    // The first refresh token again: reuse. The whole family dies, the rotated token with it.
    expect(await outcome(client.refreshTokenGrant(app.config, tokens.refresh_token as string))).toBe(
      'invalid_grant',
    );
    expect(await outcome(client.refreshTokenGrant(app.config, refreshed.refresh_token as string))).toBe(
      'invalid_grant',
    );
    expect(await active(app, refreshed.access_token)).toBe(false);
  });

  it('revocation (RFC 7009) ends an access token and a refresh token', async () => {
    const app = await registerApp();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const tokens = await redeem(app, await authorize(app, browser));
    await client.tokenRevocation(app.config, tokens.access_token);
    expect(await active(app, tokens.access_token)).toBe(false);
    expect(await outcome(client.fetchUserInfo(app.config, tokens.access_token, userId))).not.toBe('success');
    await client.tokenRevocation(app.config, tokens.refresh_token as string);
    expect(await outcome(client.refreshTokenGrant(app.config, tokens.refresh_token as string))).toBe(
      'invalid_grant',
    );
  });

  it('a person who switches an optional scope off does not grant it; the required ones are granted', async () => {
    const app = await registerApp();
    const browser = server.browser();
    await signInBySms(server, browser);
    const on = await redeem(
      app,
      await authorize(app, browser, {
        scope: 'openid user_info video.list',
        optional: 'video.list',
        keep: 'video.list',
      }),
    );
    expect(on.scope?.split(' ').sort()).toEqual(['openid', 'user_info', 'video.list']);

    const other = server.browser();
    await signInBySms(server, other);
    const off = await redeem(
      app,
      await authorize(app, other, { scope: 'openid user_info video.list', optional: 'video.list', keep: '' }),
    );
    expect(off.scope?.split(' ').sort()).toEqual(['openid', 'user_info']);
  });

  it('a denial returns error=access_denied to the app', async () => {
    const app = await registerApp();
    const browser = server.browser();
    await signInBySms(server, browser);
    const { callback } = await authorize(app, browser, { approve: 0 });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });
});

describe('refusals (SECURITY.md, "OAuth provider"): each row a test', () => {
  const authorizeQuery = (app: App, overrides: Record<string, string | undefined>) => {
    const { challenge } = pkce();
    const query: Record<string, string> = {
      client_id: app.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid user_info',
      state: randomState(),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    for (const [key, value] of Object.entries(overrides)) {
      if (value === undefined) delete query[key];
      else query[key] = value;
    }
    return `/oauth/auth?${new URLSearchParams(query)}`;
  };

  it('a redirect URI that differs by a suffix, a prefix, a case or a trailing slash: an error page, no redirect', async () => {
    const app = await registerApp();
    for (const redirect of [
      `${REDIRECT}/more`,
      `${REDIRECT}x`,
      'https://app.example.com/',
      'https://APP.example.com/callback',
      'https://app.example.com/Callback',
      `${REDIRECT}/`,
      `${REDIRECT}?x=1`,
      'https://app.example.com.evil.net/callback',
    ]) {
      const answer = await server.browser().get(authorizeQuery(app, { redirect_uri: redirect }));
      expect(answer.status, redirect).toBe(400);
      expect(answer.headers.location, redirect).toBeUndefined();
    }
  });

  it('PKCE missing or plain is refused (back to the app with invalid_request, never a code)', async () => {
    const app = await registerApp();
    for (const overrides of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge_method: 'plain', code_challenge: 'a'.repeat(43) },
      { code_challenge_method: undefined },
    ]) {
      const answer = await server.browser().get(authorizeQuery(app, overrides));
      const location = new URL(String(answer.headers.location), ORIGIN);
      expect(location.href.startsWith(REDIRECT), JSON.stringify(overrides)).toBe(true);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('a wrong PKCE verifier is refused at the token endpoint', async () => {
    const app = await registerApp();
    const browser = server.browser();
    await signInBySms(server, browser);
    const flow = await authorize(app, browser);
    expect(await outcome(redeem(app, { ...flow, verifier: pkce().verifier }))).toBe('invalid_grant');
  });

  it('a code has ≥ 128 bits and lives 10 minutes at most; an expired one is refused', async () => {
    const app = await registerApp();
    const browser = server.browser();
    await signInBySms(server, browser);
    const flow = await authorize(app, browser);
    const code = flow.callback.searchParams.get('code') ?? '';
    // base64url: 6 bits a character.
    expect(code.length * 6).toBeGreaterThanOrEqual(128);
    const records = server.app.db as unknown as Kysely<OpenAuthDatabase>;
    const row = await records
      .selectFrom('open_auth_records')
      .select(['expires_at', 'created_at'])
      .where('model', '=', 'AuthorizationCode')
      .where('id', '=', code)
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBeLessThanOrEqual(600_000);
    // Its time run out (as housekeeping would find it): refused, never tokens.
    await records
      .updateTable('open_auth_records')
      .set({ expires_at: Date.now() - 1 })
      .where('model', '=', 'AuthorizationCode')
      .where('id', '=', code)
      .execute();
    expect(await outcome(redeem(app, flow))).toBe('invalid_grant');
  });

  it('a PKCE verifier shorter than 43 or longer than 128 characters is refused', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    for (const verifier of ['a'.repeat(42), 'a'.repeat(129)]) {
      const app = await registerApp();
      const flow = await authorize(app, browser);
      expect(await outcome(redeem(app, { ...flow, verifier })), `${verifier.length} characters`).not.toBe(
        'success',
      );
    }
  });

  it('grants are code, refresh and device only; a scope the client did not register is invalid_scope', async () => {
    const app = await registerApp();
    for (const grant of ['client_credentials', 'password', 'implicit'])
      expect(
        await outcome(client.genericGrantRequest(app.config, grant, { username: 'a', password: 'b' })),
        grant,
      ).toMatch(/unsupported_grant_type|unauthorized_client|invalid_request/);
    // An implicit or hybrid response type is not served at all.
    const implicit = await follow(
      server.browser(),
      `${ISSUER}/auth?client_id=${app.clientId}&response_type=token&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=openid`,
      REDIRECT,
    );
    expect(implicit.callback?.searchParams.get('code') ?? null).toBeNull();
    expect(implicit.callback?.hash ?? '').not.toContain('access_token');

    const narrow = await client.dynamicClientRegistration(
      new URL(ISSUER),
      {
        client_name: 'Narrow',
        redirect_uris: [REDIRECT],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: 'openid user_info',
      },
      undefined,
      { initialAccessToken: REGISTRATION_TOKEN, ...rpOptions(server.app) },
    );
    const narrowApp = await discover(
      narrow.clientMetadata().client_id,
      String(narrow.clientMetadata().client_secret),
    );
    const asked = client.buildAuthorizationUrl(narrowApp.config, {
      redirect_uri: REDIRECT,
      scope: 'openid video.list',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const refused = await follow(server.browser(), asked.href, REDIRECT);
    expect(refused.callback?.searchParams.get('error')).toBe('invalid_scope');
  });

  it('a code redeemed twice: the second is refused and what the first got is revoked', async () => {
    const app = await registerApp();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const flow = await authorize(app, browser);
    const first = await redeem(app, flow);
    expect(await outcome(redeem(app, flow))).toBe('invalid_grant');
    expect(await active(app, first.access_token)).toBe(false);
    expect(await outcome(client.fetchUserInfo(app.config, first.access_token, userId))).not.toBe('success');
    expect(await outcome(client.refreshTokenGrant(app.config, first.refresh_token as string))).toBe(
      'invalid_grant',
    );
  });

  it('20 concurrent redemptions of one code: at most one gets tokens, and those are revoked', async () => {
    const app = await registerApp();
    const browser = server.browser();
    await signInBySms(server, browser);
    const flow = await authorize(app, browser);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => redeem(app, flow)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won.length).toBeLessThanOrEqual(1);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as { error?: string }).error).toBe('invalid_grant');
    for (const r of won) {
      const tokens = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof redeem>>>).value;
      expect(await active(app, tokens.access_token)).toBe(false);
      expect(await outcome(client.refreshTokenGrant(app.config, tokens.refresh_token as string))).toBe(
        'invalid_grant',
      );
    }
  });

  it('a code issued to one client is refused at another', async () => {
    const mine = await registerApp('Mine');
    const theirs = await registerApp('Theirs');
    const browser = server.browser();
    await signInBySms(server, browser);
    const flow = await authorize(mine, browser);
    const stolen = new URL(flow.callback);
    // The other app's client sees the code at its own callback (same redirect URI, another client).
    expect(await outcome(redeem(theirs, { ...flow, callback: stolen }))).toBe('invalid_grant');
    // The rightful client can still redeem it: the refusal consumed nothing.
    expect((await redeem(mine, flow)).access_token).toBeTruthy();
  });

  it('approving needs a Portico session; an unknown interaction is OPEN_INTERACTION_EXPIRED', async () => {
    const app = await registerApp();
    const browser = server.browser();
    const { challenge } = pkce();
    const first = await follow(
      browser,
      client.buildAuthorizationUrl(app.config, {
        redirect_uri: REDIRECT,
        scope: 'openid user_info',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).href,
      REDIRECT,
    );
    const anonymous = await browser.post(paths.open.webAuth, {
      interaction: first.interaction ?? '',
      approve: 1,
    });
    expect(anonymous.body.status_code).toBe(ErrorCode.notLoggedIn);
    await signInBySms(server, browser);
    const unknown = await browser.post(paths.open.webAuth, {
      interaction: 'no-such-interaction',
      approve: 1,
    });
    expect(unknown.body.status_code).toBe(ErrorCode.openInteractionExpired);
  });

  it('the token path of the open family takes the client secret in the body only (no GET)', async () => {
    const answer = await server.app.inject({
      method: 'GET',
      url: `${paths.open.oauthToken}?client_key=x&client_secret=y&code=z&grant_type=authorization_code`,
    });
    expect(answer.statusCode).toBe(404);
  });

  it('refuses a body declared past the body limit with the 413 envelope, on every path of the mount', async () => {
    // Found by the fuzz suite: the mount's parser left bodies unread, so an oversized one earned a 400
    // from the provider or a 404 instead of the server's 413.
    const limit = server.app.initialConfig.bodyLimit ?? 1024 * 1024;
    for (const [url, type, payload] of [
      ['/oauth/token', 'application/x-www-form-urlencoded', `grant_type=${'1'.repeat(limit)}`],
      [paths.open.oauthToken, 'application/json', JSON.stringify({ mobile: 'x'.repeat(limit) })],
      ['/oauth/index.html', 'application/x-www-form-urlencoded', `mobile=${'1'.repeat(limit)}`],
    ] as const) {
      const answer = await server.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': type },
        payload,
      });
      expect(answer.statusCode, url).toBe(413);
      expect(answer.json().data.error_code, url).toBe(1003);
    }
  });
});

describe('the consent page and the account centre', () => {
  it('auth_info/v2 describes the app, its required and optional scopes in zh and en, and who is signed in', async () => {
    const app = await registerApp('Video Club');
    const browser = server.browser();
    const url = client.buildAuthorizationUrl(app.config, {
      redirect_uri: REDIRECT,
      scope: 'openid user_info video.list',
      optional_scope: 'video.list',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const { interaction } = await follow(browser, url.href, REDIRECT);
    const before = await browser.get(`${paths.open.authInfoV2}?interaction=${interaction}`);
    expect(before.body.status_code).toBe(0);
    expect(before.body.data).toMatchObject({
      client_key: app.clientId,
      app_name: 'Video Club',
      scope: [{ name: 'user_info' }],
      optionalScope: [{ name: 'video.list', zh: '查看你的视频', en: 'See your videos' }],
      user: null,
    });
    const { userId } = await signInBySms(server, browser);
    const after = await browser.get(`${paths.open.authInfoV2}?interaction=${interaction}`);
    expect(after.body.data.user.user_id).toBe(userId);
  });

  it('signs in by SMS code of purpose 26 on the consent page (sms/authorize); a login code is refused there', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const code = await mobileCode(server, browser, mobile, CodeType.smsAuthorize);
    const signedIn = await browser.post(paths.web.smsAuthorize, { mobile, code });
    expect(signedIn.body.message, JSON.stringify(signedIn.body)).toBe('success');
    const other = server.browser();
    const otherMobile = freshMobile();
    const loginCode = await mobileCode(server, other, otherMobile, CodeType.mobileLogin);
    const refused = await other.post(paths.web.smsAuthorize, {
      mobile: otherMobile,
      code: loginCode,
      type: 24,
    });
    expect(refused.body.data.error_code).toBe(ErrorCode.codeTypeInvalid);
  });

  it('lists the apps a person authorised; revoking one kills its tokens and asks for consent again', async () => {
    const app = await registerApp('Revocable');
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const tokens = await redeem(app, await authorize(app, browser));
    const listed = await browser.get(paths.open.authorizedApps);
    expect(listed.body.data.apps).toEqual([
      expect.objectContaining({ client_key: app.clientId, app_name: 'Revocable', scopes: ['user_info'] }),
    ]);
    // Someone else cannot revoke it for them.
    const stranger = server.browser();
    await signInBySms(server, stranger);
    const refused = await stranger.post(paths.open.updateAuthorizeInfo, { client_key: app.clientId });
    expect(refused.body.status_code).toBe(ErrorCode.openNotAuthorized);
    expect(await active(app, tokens.access_token)).toBe(true);

    const revoked = await browser.post(paths.open.updateAuthorizeInfo, { client_key: app.clientId });
    expect(revoked.body.status_code, JSON.stringify(revoked.body)).toBe(0);
    expect(revoked.body.data.apps).toEqual([]);
    // Consent and revocation are each an event in the person's stream, and the stranger's refused
    // revocation is none.
    expect(await appEvents(userId)).toEqual([
      {
        type: 'account.app_authorized',
        data: { clientId: app.clientId, appName: 'Revocable', scopes: ['user_info'], refused: [] },
      },
      {
        type: 'account.app_revoked',
        data: { clientId: app.clientId, appName: 'Revocable', reason: 'revoked' },
      },
    ]);
    expect(await active(app, tokens.access_token)).toBe(false);
    expect(await outcome(client.refreshTokenGrant(app.config, tokens.refresh_token as string))).toBe(
      'invalid_grant',
    );
    // The next authorization goes through the consent page again.
    await authorize(app, browser);
  });

  it('the consent page the provider sends a person to is a page of the web app: never framed, revalidated, its calls never stored', async () => {
    const app = await registerApp();
    const browser = server.browser();
    await signInBySms(server, browser);
    const { challenge } = pkce();
    const start = client.buildAuthorizationUrl(app.config, {
      redirect_uri: REDIRECT,
      scope: 'openid user_info',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: randomState(),
    });
    // The provider's own redirect, as the browser gets it.
    let location = '';
    let answer = await browser.get(pathOf(start));
    for (let hop = 0; hop < 4 && answer.headers.location; hop += 1) {
      location = String(answer.headers.location);
      if (new URL(location, ORIGIN).pathname === CONSENT_PAGE) break;
      answer = await browser.get(pathOf(location));
    }
    expect(new URL(location, ORIGIN).pathname).toBe(CONSENT_PAGE);
    const interaction = new URL(location, ORIGIN).searchParams.get('interaction') ?? '';

    // The browser loads it as a page: the web app's index.html with the headers of every sign-in page.
    const page = await browser.get(pathOf(location), {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.raw.body).toBe(WEB_INDEX);
    // A framed Approve button is clickjacking: no page of another origin, or of this one, may frame it.
    const csp = String(page.headers['content-security-policy']);
    for (const directive of [
      "frame-ancestors 'none'",
      "default-src 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ])
      expect(csp).toContain(directive);
    // The interaction id in its address never reaches another origin as a Referer.
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // Revalidated on every visit, like every page of the app (hashed assets alone are cached).
    expect(page.headers['cache-control']).toBe('no-cache');

    // What the page asks and sends is never stored by a cache.
    const info = await browser.get(`${paths.open.authInfoV2}?interaction=${interaction}`);
    expect(info.body.status_code).toBe(0);
    const decided = await browser.post(paths.open.webAuth, { interaction, approve: 1, scope: '' });
    expect(decided.body.status_code).toBe(0);
    for (const call of [info, decided]) {
      expect(call.headers['cache-control']).toBe('no-store');
      expect(String(call.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    }
  });

  it('the connect redirect of the spec lands on the authorization page through the provider', async () => {
    const app = await registerApp();
    const browser = server.browser();
    const { challenge } = pkce();
    const query = new URLSearchParams({
      client_key: app.clientId,
      scope: 'user_info',
      optionalScope: 'video.list',
      state: 'xyz',
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const answer = await follow(browser, `${paths.open.connect}?${query}`, REDIRECT);
    expect(answer.interaction).toBeTruthy();
    const info = await browser.get(`${paths.open.authInfoV2}?interaction=${answer.interaction}`);
    expect(info.body.data.optionalScope.map((s: { name: string }) => s.name)).toEqual(['video.list']);
    expect(pathOf(`${paths.open.connect}?${query}`)).toContain('/passport/open/connect');
  });

  /** The connect redirect's query for an app, with a fresh state and PKCE pair. */
  function connectQuery(app: App, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const state = randomState();
    const query = new URLSearchParams({
      client_key: app.clientId,
      scope: 'user_info',
      optionalScope: 'video.list',
      state,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return { query, verifier, state };
  }

  /** Every provider interaction ends (their half hour passed). */
  const expireInteractions = () =>
    (server.app.db as unknown as Kysely<OpenAuthDatabase>)
      .deleteFrom('open_auth_records')
      .where('model', '=', 'Interaction')
      .execute();

  it('remembers the connect request for 60 days (the open-auth state cookie): the expired interaction it became starts again', async () => {
    const app = await registerApp();
    const browser = server.browser();
    await signInBySms(server, browser);
    const { query, verifier, state } = connectQuery(app);
    const connect = await browser.get(`${paths.open.connect}?${query}`);
    expect(connect.status).toBe(302);
    const cookie = [connect.headers['set-cookie'] ?? []]
      .flat()
      .find((c) => String(c).startsWith('passport_open_auth_state='));
    expect(cookie, 'the state cookie').toBeTruthy();
    expect(cookie).toMatch(/Max-Age=5184000/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/passport\/open\//);
    const first = await follow(browser, String(connect.headers.location), REDIRECT);
    // The page shows it: the cookie learns which interaction the request became.
    const shown = await browser.get(`${paths.open.authInfoV2}?interaction=${first.interaction}`);
    expect(shown.body.status_code).toBe(0);

    await expireInteractions();
    const gone = await browser.get(`${paths.open.authInfoV2}?interaction=${first.interaction}`);
    expect(gone.body.status_code).toBe(ErrorCode.openInteractionExpired);
    expect(gone.body.data.resumable).toBe(true);
    const late = await browser.post(paths.open.webAuth, { interaction: first.interaction ?? '', approve: 1 });
    expect(late.body.data.resumable).toBe(true);

    // Meanwhile the person authorised the app with every scope elsewhere: a resume still asks
    // (prompt=consent) instead of handing the app a code at once.
    await authorize(app, browser, {
      scope: 'openid user_info video.list',
      optional: 'video.list',
      keep: 'video.list',
    });
    const again = await follow(browser, paths.open.connectResume, REDIRECT);
    expect(again.interaction, 'the consent page again, though the app was authorised').toBeTruthy();
    expect(again.interaction).not.toBe(first.interaction);
    const info = await browser.get(`${paths.open.authInfoV2}?interaction=${again.interaction}`);
    expect(info.body.data.client_key).toBe(app.clientId);
    expect(info.body.data.optionalScope.map((s: { name: string }) => s.name)).toEqual(['video.list']);
    const decided = await browser.post(paths.open.webAuth, {
      interaction: again.interaction ?? '',
      approve: 1,
      scope: '',
    });
    const back = await follow(browser, decided.body.data.redirect_url, REDIRECT);
    // The same request: the app's state and PKCE verifier still fit.
    const tokens = await redeem(app, { callback: back.callback as URL, verifier, state });
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.scope?.split(' ')).not.toContain('video.list');
  });

  it('offers no resume for an interaction the cookie does not name: another connect since, a stock client, no cookie, a forged one', async () => {
    const app = await registerApp();
    const other = await registerApp('Other App');
    const browser = server.browser();
    const mine = await follow(browser, `${paths.open.connect}?${connectQuery(app).query}`, REDIRECT);
    expect(
      (await browser.get(`${paths.open.authInfoV2}?interaction=${mine.interaction}`)).body.status_code,
    ).toBe(0);
    // Another site sends the browser through a connect of its own: the cookie now names that request.
    const theirs = await follow(browser, `${paths.open.connect}?${connectQuery(other).query}`, REDIRECT);
    expect(
      (await browser.get(`${paths.open.authInfoV2}?interaction=${theirs.interaction}`)).body.status_code,
    ).toBe(0);
    // A stock client's request (straight to the provider) never names itself in the cookie.
    const stock = await follow(
      browser,
      client.buildAuthorizationUrl(app.config, {
        redirect_uri: REDIRECT,
        scope: 'openid user_info',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }).href,
      REDIRECT,
    );
    await browser.get(`${paths.open.authInfoV2}?interaction=${stock.interaction}`);
    await expireInteractions();
    const answers = async (interaction?: string) =>
      (await browser.get(`${paths.open.authInfoV2}?interaction=${interaction}`)).body.data.resumable;
    expect(await answers(mine.interaction)).toBe(false);
    expect(await answers(stock.interaction)).toBe(false);
    expect(await answers(theirs.interaction)).toBe(true);

    // No cookie: the resume lands on the authorization page, which says the request is gone.
    const stranger = server.browser();
    const none = await stranger.get(paths.open.connectResume);
    expect(none.status).toBe(302);
    expect(none.headers.location).toBe('/authorization');
    // A payload the server did not sign is no cookie; the signed one resumes.
    const value = browser.cookies.get('passport_open_auth_state') ?? '';
    const [payload = '', signature = ''] = value.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        client_key: app.clientId,
        redirect_uri: 'https://evil.example/callback',
        issued_at: Date.now(),
      }),
    ).toString('base64url');
    browser.cookies.set('passport_open_auth_state', `${forged}.${signature}`);
    expect((await browser.get(paths.open.connectResume)).headers.location).toBe('/authorization');
    browser.cookies.set('passport_open_auth_state', `${payload}.${signature}`);
    expect(String((await browser.get(paths.open.connectResume)).headers.location)).toMatch(
      /^\/oauth\/auth\?.*prompt=consent/,
    );
  });
});

describe('the developer console', () => {
  /** Registers an app in the console as `owner`; answers the console's answer and a stock RP for it. */
  async function consoleApp(owner: Browser, fields: Record<string, string> = {}) {
    const created = await owner.post(DEVELOPER_APP_CREATE_PATH, {
      app_name: 'Console App',
      redirect_uris: REDIRECT,
      ...fields,
    });
    expect(created.body.message, JSON.stringify(created.body)).toBe('success');
    const data = created.body.data;
    return { data, rp: await discover(data.client_key, data.client_secret) };
  }
  const refusal = (answer: { body: { data: { error_code: number } } }) => answer.body.data.error_code;
  /** An app registered in the console by `owner`, and a person who authorised it (with their tokens). */
  async function authorisedApp() {
    const owner = server.browser();
    await signInBySms(server, owner);
    const { data, rp } = await consoleApp(owner);
    const person = server.browser();
    await signInBySms(server, person);
    const tokens = await redeem(rp, await authorize(rp, person));
    return { owner, data, rp, person, tokens };
  }

  it('registers an app that a stock client uses at once; the list counts who authorised it and never shows the secret', async () => {
    const owner = server.browser();
    await signInBySms(server, owner);
    const { data, rp } = await consoleApp(owner, {
      app_name: 'Video Club',
      app_icon: 'https://cdn.example.com/icon.png',
      redirect_uris: `${REDIRECT}\nhttp://127.0.0.1:8080/cb`,
      scopes: 'video.list',
    });
    expect(data).toMatchObject({
      app_name: 'Video Club',
      app_icon: 'https://cdn.example.com/icon.png',
      redirect_uris: [REDIRECT, 'http://127.0.0.1:8080/cb'],
      scopes: ['user_info', 'video.list'],
      authorized_count: 0,
    });
    expect(data.client_secret.length).toBeGreaterThanOrEqual(43);

    for (const person of [server.browser(), server.browser()]) {
      await signInBySms(server, person);
      const tokens = await redeem(rp, await authorize(rp, person, { scope: 'openid user_info video.list' }));
      expect(tokens.scope?.split(' ').sort()).toEqual(['openid', 'user_info', 'video.list']);
    }
    const listed = await owner.get(DEVELOPER_APPS_PATH);
    expect(listed.body.data.apps).toEqual([
      expect.objectContaining({ client_key: data.client_key, authorized_count: 2 }),
    ]);
    expect(listed.body.data.scopes.map((scope: { name: string }) => scope.name)).toEqual([
      'user_info',
      'profile',
      'email',
      'phone',
      'organisations',
      'video.list',
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(data.client_secret);
    // The consent page describes it like any other app.
    const info = await owner.get(`${paths.open.authInfoV2}?client_key=${data.client_key}`);
    expect(info.body.data).toMatchObject({
      app_name: 'Video Club',
      app_icon: 'https://cdn.example.com/icon.png',
    });
  });

  it('an app asks only for the scopes it registered: another one is refused by the provider', async () => {
    const owner = server.browser();
    await signInBySms(server, owner);
    const { rp } = await consoleApp(owner);
    const { challenge } = pkce();
    const url = client.buildAuthorizationUrl(rp.config, {
      redirect_uri: REDIRECT,
      scope: 'openid user_info video.list',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: randomState(),
    });
    const answer = await follow(server.browser(), url.href, REDIRECT);
    expect(answer.interaction).toBeFalsy();
    expect(answer.callback?.searchParams.get('error')).toBe('invalid_scope');
  });

  it('rotating the secret stops the old one at once; the new one works', async () => {
    const { owner, data, rp, tokens } = await authorisedApp();
    const rotated = await owner.post(DEVELOPER_APP_ROTATE_PATH, { client_key: data.client_key });
    expect(rotated.body.message, JSON.stringify(rotated.body)).toBe('success');
    expect(rotated.body.data.client_secret).not.toBe(data.client_secret);
    expect(rotated.body.data.authorized_count).toBe(1);
    expect(await outcome(client.refreshTokenGrant(rp.config, tokens.refresh_token as string))).toBe(
      'invalid_client',
    );
    const renewed = await discover(data.client_key, rotated.body.data.client_secret);
    const refreshed = await client.refreshTokenGrant(renewed.config, tokens.refresh_token as string);
    expect(refreshed.access_token).toBeTruthy();
  });

  it('deleting an app ends every authorisation and token of it; the consent page no longer knows it', async () => {
    const { owner, data, rp, person, tokens } = await authorisedApp();
    const deleted = await owner.post(DEVELOPER_APP_DELETE_PATH, { client_key: data.client_key });
    expect(deleted.body.message, JSON.stringify(deleted.body)).toBe('success');
    expect(deleted.body.data.apps).toEqual([]);
    expect(await outcome(client.refreshTokenGrant(rp.config, tokens.refresh_token as string))).toBe(
      'invalid_client',
    );
    expect((await person.get(paths.open.authorizedApps)).body.data.apps).toEqual([]);
    const info = await owner.get(`${paths.open.authInfoV2}?client_key=${data.client_key}`);
    expect(info.body.status_code).toBe(ErrorCode.openClientNotFound);
  });

  it("another person's app answers as one that does not exist, and nothing changes", async () => {
    const owner = server.browser();
    await signInBySms(server, owner);
    const { data, rp } = await consoleApp(owner);
    const stranger = server.browser();
    await signInBySms(server, stranger);
    expect((await stranger.get(DEVELOPER_APPS_PATH)).body.data.apps).toEqual([]);
    for (const path of [DEVELOPER_APP_ROTATE_PATH, DEVELOPER_APP_DELETE_PATH]) {
      for (const key of [data.client_key, 'no-such-app']) {
        const answer = await stranger.post(path, { client_key: key });
        expect(refusal(answer), `${path} ${key}`).toBe(ErrorCode.openClientNotFound);
      }
    }
    const person = server.browser();
    await signInBySms(server, person);
    expect((await redeem(rp, await authorize(rp, person))).access_token).toBeTruthy();
    expect((await owner.get(DEVELOPER_APPS_PATH)).body.data.apps).toHaveLength(1);
  });

  it('refuses redirect URIs that are not exact https (or loopback http) addresses, unknown scopes, and strangers', async () => {
    const owner = server.browser();
    await signInBySms(server, owner);
    for (const redirect_uris of [
      'http://app.example.com/callback',
      'https://app.example.com/callback#frag',
      '/callback',
      'javascript:alert(1)',
      'https://user:pw@app.example.com/cb',
      Array.from({ length: 11 }, (_, i) => `https://app.example.com/cb${i}`).join(' '),
    ]) {
      const answer = await owner.post(DEVELOPER_APP_CREATE_PATH, { app_name: 'Bad', redirect_uris });
      expect(refusal(answer), redirect_uris).toBe(ErrorCode.openRedirectUriInvalid);
    }
    const scope = await owner.post(DEVELOPER_APP_CREATE_PATH, {
      app_name: 'Greedy',
      redirect_uris: REDIRECT,
      scopes: 'user_info admin.everything',
    });
    expect(refusal(scope)).toBe(ErrorCode.openScopeInvalid);
    expect((await owner.get(DEVELOPER_APPS_PATH)).body.data.apps).toEqual([]);
    const signedOut = server.browser();
    const answer = await signedOut.post(DEVELOPER_APP_CREATE_PATH, {
      app_name: 'X',
      redirect_uris: REDIRECT,
    });
    expect(refusal(answer)).toBe(ErrorCode.notLoggedIn);
  });

  it('one account owns at most 20 apps', async () => {
    const owner = server.browser();
    await signInBySms(server, owner);
    for (let i = 0; i < 20; i++) {
      const created = await owner.post(DEVELOPER_APP_CREATE_PATH, {
        app_name: `App ${i}`,
        redirect_uris: REDIRECT,
      });
      expect(created.body.message).toBe('success');
    }
    const refused = await owner.post(DEVELOPER_APP_CREATE_PATH, {
      app_name: 'One more',
      redirect_uris: REDIRECT,
    });
    expect(refusal(refused)).toBe(ErrorCode.openAppLimit);
    expect((await owner.get(DEVELOPER_APPS_PATH)).body.data.apps).toHaveLength(20);
  });
});
