import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../src/protocol';
import { isSignedIn, sessionCount, signInBySms } from './support/flows';
import { follow, pkce, randomState } from './support/open-auth-client';
import { freePort } from './support/process';
import { type Browser, startServer, type TestServer } from './support/server';

/**
 * The conformance suite, modelled on the OpenID Foundation's test plans: each describe names its plan
 * (config, basic, dynamic, logout, PAR, DPoP, device); the refusals SECURITY.md lists for the provider
 * are `open-auth.test.ts` › "refusals", and agents `conformance/agents.test.ts` (docs/open-authorization.md,
 * "Conformance"). Portico as the authorization server of a stock relying party: an unmodified `openid-client`, over
 * real HTTP to the server listening on loopback (no custom fetch; `allowInsecureRequests` only because
 * loopback is plain http), on SQLite and PostgreSQL (vitest.config.ts). The person's browser is a test
 * Browser on the same server. Covers what docs/open-authorization.md promises a client: discovery at
 * the issuer, the standard scopes and their claims, RP-initiated logout, PAR, DPoP, and the redirect
 * rule of registration.
 */

const REGISTRATION_TOKEN = 'initial-access-token-stock-0123456789abcdef';
const REDIRECT = 'http://127.0.0.1:9/callback';
const LOGGED_OUT = 'http://127.0.0.1:9/logged-out';

let server: TestServer;
let origin: string;
let issuer: string;
const insecure = { execute: [client.allowInsecureRequests] };

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  issuer = `${origin}/oauth`;
  server = await startServer({
    publicOrigin: origin,
    openAuth: {
      registrationToken: REGISTRATION_TOKEN,
      scopes: [{ name: 'video.list', zh: '查看你的视频', en: 'See your videos' }],
      // The device flow's interval, which openid-client follows: 2 s here instead of 5 (fewer seconds
      // of waiting; the slow_down gate is the same code at any interval).
      devicePollSeconds: 2,
    },
  });
  await server.app.listen({ host: '127.0.0.1', port });
});
afterAll(async () => {
  await server?.close();
});

interface Rp {
  config: client.Configuration;
  clientId: string;
}

/** RFC 7591 registration with the initial access token, as a stock client does it. */
async function register(metadata: Partial<client.ClientMetadata> = {}): Promise<Rp> {
  const config = await client.dynamicClientRegistration(
    new URL(issuer),
    {
      client_name: 'Stock RP',
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: [LOGGED_OUT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      ...metadata,
    },
    undefined,
    { initialAccessToken: REGISTRATION_TOKEN, ...insecure },
  );
  return { config, clientId: config.clientMetadata().client_id };
}

/** The OAuth error of a refused call, or 'success'. */
async function outcome(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'success';
  } catch (error) {
    const challenge = (error as { cause?: { parameters?: { error?: string } }[] }).cause;
    const fromChallenge = Array.isArray(challenge) ? challenge[0]?.parameters?.error : undefined;
    return String((error as { error?: string }).error ?? fromChallenge ?? (error as Error).message);
  }
}

/** The person answers the consent page's question (approve) and the browser goes back to the app. */
async function approve(browser: Browser, start: string): Promise<URL> {
  const first = await follow(browser, start, REDIRECT);
  if (first.callback) return first.callback;
  expect(first.interaction, 'the provider sends the person to the authorization page').toBeTruthy();
  const decided = await browser.post(paths.open.webAuth, {
    interaction: first.interaction ?? '',
    approve: 1,
  });
  expect(decided.body.status_code, JSON.stringify(decided.body)).toBe(0);
  const back = await follow(browser, decided.body.data.redirect_url, REDIRECT);
  expect(back.callback, 'the provider redirects to the app').toBeTruthy();
  return back.callback as URL;
}

/** The whole code flow with PKCE for these scopes; answers the tokens. */
async function codeFlow(
  rp: Rp,
  browser: Browser,
  scope: string,
  options: { par?: boolean; dpop?: client.DPoPHandle } = {},
) {
  const { verifier, challenge } = pkce();
  const state = randomState();
  const parameters = {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  };
  const url = options.par
    ? await client.buildAuthorizationUrlWithPAR(
        rp.config,
        parameters,
        options.dpop ? { DPoP: options.dpop } : undefined,
      )
    : client.buildAuthorizationUrl(rp.config, parameters);
  const callback = await approve(browser, url.href);
  return client.authorizationCodeGrant(
    rp.config,
    callback,
    { pkceCodeVerifier: verifier, expectedState: state },
    undefined,
    options.dpop ? { DPoP: options.dpop } : undefined,
  );
}

describe('plan config (oidcc-config): discovery at one issuer', () => {
  it('a client given the issuer finds the document at issuer + /.well-known/openid-configuration; the origin alone finds none', async () => {
    const rp = await register();
    const metadata = rp.config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.end_session_endpoint).toBe(`${issuer}/session/end`);
    expect(metadata.pushed_authorization_request_endpoint).toBe(`${issuer}/request`);
    expect(metadata.dpop_signing_alg_values_supported?.length).toBeGreaterThan(0);
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'phone', 'organisations', 'user_info']),
    );
    expect(metadata.claims_supported).toEqual(
      expect.arrayContaining([
        'name',
        'email',
        'email_verified',
        'phone_number',
        'updated_at',
        'organisations',
      ]),
    );
    // RFC 8414's location for the same issuer answers the same document.
    const rfc8414 = await fetch(`${origin}/.well-known/oauth-authorization-server/oauth`);
    expect(((await rfc8414.json()) as { issuer: string }).issuer).toBe(issuer);
    // Given only the origin, a stock client looks at the origin's own document: there is none.
    expect((await fetch(`${origin}/.well-known/openid-configuration`)).status).toBe(404);
    expect(await outcome(client.discovery(new URL(origin), 'x', undefined, undefined, insecure))).not.toBe(
      'success',
    );
  });
});

describe('plan basic (oidcc-basic): standard scopes and claims', () => {
  it('profile email phone organisations: in the ID token and at userinfo; without them only sub', async () => {
    const rp = await register();
    const browser = server.browser();
    const { userId, mobile } = await signInBySms(server, browser);
    // The fixture: an e-mail address on the account and membership of one organisation.
    const email = `stock-${randomUUID().slice(0, 8)}@example.com`;
    const now = Date.now();
    const subjectId = randomUUID();
    await server.app.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
    await server.app.db
      .insertInto('subjects')
      .values({
        id: subjectId,
        name: 'Stock Org',
        base_infos: '{}',
        detail_infos: '{}',
        identity_card_sealed: null,
        real_name_sealed: null,
        created_by: userId,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await server.app.db
      .insertInto('deputies')
      .values({
        id: randomUUID(),
        subject_id: subjectId,
        user_id: userId,
        deputy_name: 'Ada at Stock',
        is_manager: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const tokens = await codeFlow(rp, browser, 'openid profile email phone organisations');
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'openid', 'organisations', 'phone', 'profile']);
    const idToken = tokens.claims();
    expect(idToken).toMatchObject({
      sub: userId,
      name: expect.any(String),
      updated_at: expect.any(Number),
      organisations: [{ id: subjectId, name: 'Stock Org', member_name: 'Ada at Stock', manager: true }],
    });
    // The e-mail address and the mobile number are never in the ID token (it travels in end-session
    // URLs as id_token_hint), granted or not: userinfo answers them.
    for (const claim of ['email', 'email_verified', 'phone_number', 'phone_number_verified'])
      expect(idToken?.[claim], claim).toBeUndefined();
    const logoutUrl = client.buildEndSessionUrl(rp.config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: LOGGED_OUT,
    }).href;
    const hint = new URL(logoutUrl).searchParams.get('id_token_hint') ?? '';
    const hinted = Buffer.from(hint.split('.')[1] ?? '', 'base64url').toString();
    for (const personal of [email, mobile, encodeURIComponent(email), encodeURIComponent(mobile)]) {
      expect(logoutUrl).not.toContain(personal);
      expect(hinted).not.toContain(personal);
    }
    const me = await client.fetchUserInfo(rp.config, tokens.access_token, userId);
    expect(me).toMatchObject({
      sub: userId,
      name: idToken?.name,
      email,
      email_verified: true,
      phone_number: mobile,
      phone_number_verified: true,
      organisations: [expect.objectContaining({ id: subjectId })],
    });
    // After a refresh the new ID token is the same: no contact claims.
    const refreshed = await client.refreshTokenGrant(rp.config, tokens.refresh_token as string);
    expect(refreshed.claims()?.email).toBeUndefined();
    expect(refreshed.claims()?.phone_number).toBeUndefined();
    expect(refreshed.claims()?.name).toBe(idToken?.name);

    // Granted profile only: userinfo answers no e-mail or mobile either, though the account has both.
    const narrow = await register();
    const profileOnly = await codeFlow(narrow, browser, 'openid profile');
    const narrowMe = await client.fetchUserInfo(narrow.config, profileOnly.access_token, userId);
    expect(narrowMe.email).toBeUndefined();
    expect(narrowMe.phone_number).toBeUndefined();
    expect(narrowMe.organisations).toBeUndefined();

    // Only openid: the same person, the same app, nothing but sub.
    const other = await register();
    const bare = await codeFlow(other, browser, 'openid');
    expect(Object.keys(await client.fetchUserInfo(other.config, bare.access_token, userId))).toEqual(['sub']);
    expect(bare.claims()?.email).toBeUndefined();
    expect(bare.claims()?.name).toBeUndefined();
  });

  it('the consent question names each scope asked for in words, zh and en, and only those', async () => {
    const rp = await register();
    const browser = server.browser();
    const url = client.buildAuthorizationUrl(rp.config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile email',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const { interaction } = await follow(browser, url.href, REDIRECT);
    const info = await browser.get(`${paths.open.authInfoV2}?interaction=${interaction}`);
    // No ui_locales in the request: the page follows the person's choice or the browser.
    expect(info.body.data.ui_language).toBeUndefined();
    expect(info.body.data.scope).toEqual([
      { name: 'profile', zh: expect.stringContaining('昵称'), en: expect.stringContaining('name') },
      { name: 'email', zh: expect.stringContaining('邮箱'), en: expect.stringContaining('e-mail') },
    ]);
  });
});

describe('plan basic (oidcc-basic): the consent page’s language, ui_locales, and the authorised apps in words', () => {
  it('ui_locales of the request names the page language; the authorised apps list describes each scope', async () => {
    const rp = await register();
    const browser = server.browser();
    await signInBySms(server, browser);
    for (const [uiLocales, language] of [
      ['en-US zh-CN', 'en'],
      ['fr zh-TW', 'zh'],
      ['fr', undefined],
    ] as const) {
      const url = client.buildAuthorizationUrl(rp.config, {
        redirect_uri: REDIRECT,
        scope: 'openid email',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        ui_locales: uiLocales,
        prompt: 'consent',
      });
      const { interaction } = await follow(browser, url.href, REDIRECT);
      const info = await browser.get(`${paths.open.authInfoV2}?interaction=${interaction}`);
      expect(info.body.data.ui_language, uiLocales).toBe(language);
    }
    await codeFlow(rp, browser, 'openid email phone');
    const listed = await browser.get(paths.open.authorizedApps);
    expect(listed.body.data.apps[0].scope_info).toEqual([
      expect.objectContaining({ name: 'email', en: 'Your e-mail address' }),
      expect.objectContaining({ name: 'phone', zh: '你的手机号' }),
    ]);
  });
});

describe('plan logout (oidcc-rp-initiated-logout): RP-initiated logout', () => {
  /** The provider's logout page: its language and the xsrf field of its form. */
  const logoutPage = (html: string) => ({
    lang: html.match(/<html lang="([^"]+)"/)?.[1],
    xsrf: html.match(/name="xsrf" value="([^"]+)"/)?.[1] ?? '',
  });

  it('ends the Portico session and returns to the registered post-logout URI with the state; the app keeps its tokens', async () => {
    const rp = await register();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const tokens = await codeFlow(rp, browser, 'openid profile');
    const state = randomState();
    const end = client.buildEndSessionUrl(rp.config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: LOGGED_OUT,
      state,
    });
    const question = await browser.get(`${end.pathname}${end.search}`, {
      'accept-language': 'en-GB,zh;q=0.5',
    });
    expect(question.status).toBe(200);
    const page = logoutPage(question.raw.body);
    expect(page.lang).toBe('en');
    expect(question.raw.body).toContain('Stock RP asks to sign you out');
    expect(String(question.headers['content-security-policy'])).toContain("frame-ancestors 'none'");

    const confirmed = await browser.post('/oauth/session/end/confirm', { xsrf: page.xsrf, logout: 'yes' });
    expect(confirmed.status).toBe(303);
    const back = new URL(String(confirmed.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(LOGGED_OUT);
    expect(back.searchParams.get('state')).toBe(state);
    expect(await isSignedIn(browser)).toBe(false);
    expect(await sessionCount(server, userId)).toBe(0);
    // The app's authorisation outlives the session: its tokens still work (revoked under Authorised apps).
    expect((await client.fetchUserInfo(rp.config, tokens.access_token, userId)).sub).toBe(userId);
  });

  it('"stay signed in" keeps the Portico session; ui_locales picks the page language', async () => {
    const rp = await register();
    const browser = server.browser();
    await signInBySms(server, browser);
    const tokens = await codeFlow(rp, browser, 'openid');
    const end = client.buildEndSessionUrl(rp.config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: LOGGED_OUT,
      ui_locales: 'zh-CN',
    });
    const question = await browser.get(`${end.pathname}${end.search}`, { 'accept-language': 'en' });
    const page = logoutPage(question.raw.body);
    expect(page.lang).toBe('zh-CN');
    const kept = await browser.post('/oauth/session/end/confirm', { xsrf: page.xsrf });
    expect(kept.status).toBe(303);
    expect(await isSignedIn(browser)).toBe(true);
  });

  it('a person the provider never saw (no account in its session) is not signed out of Portico unasked', async () => {
    const rp = await register();
    const browser = server.browser();
    await signInBySms(server, browser);
    // Straight to the end-session endpoint: the provider posts logout=yes by itself (its form).
    const end = client.buildEndSessionUrl(rp.config, { post_logout_redirect_uri: LOGGED_OUT });
    const form = await browser.get(`${end.pathname}${end.search}`);
    expect(form.status).toBe(200);
    const posted = await browser.post('/oauth/session/end/confirm', {
      xsrf: logoutPage(form.raw.body).xsrf,
      logout: 'yes',
    });
    expect(posted.status).toBe(303);
    expect(await isSignedIn(browser)).toBe(true);
  });

  it('refuses a post-logout URI the client did not register, and one from another client', async () => {
    const rp = await register();
    const other = await register({ post_logout_redirect_uris: ['https://other.example.com/bye'] });
    const browser = server.browser();
    await signInBySms(server, browser);
    const tokens = await codeFlow(rp, browser, 'openid');
    for (const uri of ['https://evil.example.com/bye', 'https://other.example.com/bye', `${LOGGED_OUT}/x`]) {
      const end = client.buildEndSessionUrl(rp.config, {
        id_token_hint: tokens.id_token as string,
        post_logout_redirect_uri: uri,
      });
      const answer = await browser.get(`${end.pathname}${end.search}`);
      expect(answer.status, uri).toBe(400);
      expect(answer.headers.location, uri).toBeUndefined();
    }
    expect(other.clientId).not.toBe(rp.clientId);
    expect(await isSignedIn(browser)).toBe(true);
  });
});

/**
 * A relying party's back-channel logout endpoint on loopback: collects the logout tokens it is sent and
 * answers 200, as OpenID Connect Back-Channel Logout 1.0 §2.8 asks.
 */
async function logoutReceiver(): Promise<{
  uri: string;
  tokens: string[];
  next(): Promise<string>;
  close(): Promise<void>;
}> {
  const tokens: string[] = [];
  const waiting: ((token: string) => void)[] = [];
  const receiver: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token') ?? '';
      response.writeHead(token ? 200 : 400, { 'cache-control': 'no-store' }).end();
      if (!token) return;
      const resolve = waiting.shift();
      if (resolve) resolve(token);
      else tokens.push(token);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/backchannel-logout`,
    tokens,
    next: () => {
      const ready = tokens.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => receiver.close(() => resolve())),
  };
}

/**
 * What a relying party checks of a logout token (Back-Channel Logout 1.0 §2.6), with jose and the
 * issuer's published keys: signature, iss, aud, iat, the logout event, a sub or sid, and no nonce.
 */
async function verifyLogoutToken(token: string, clientId: string) {
  const keys = jose.createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const { payload, protectedHeader } = await jose.jwtVerify(token, keys, {
    issuer,
    audience: clientId,
    typ: 'logout+jwt',
    maxTokenAge: '2 minutes',
  });
  expect(protectedHeader.alg).toBe('ES256');
  expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
  expect(payload.nonce).toBeUndefined();
  expect(typeof payload.jti).toBe('string');
  return payload;
}

describe('plan logout (oidcc-backchannel-rp-initiated-logout): back-channel logout', () => {
  it('discovery says it is supported, with sid; a backchannel_logout_uri follows the redirect rule', async () => {
    const rp = await register();
    const metadata = rp.config.serverMetadata();
    expect(metadata.backchannel_logout_supported).toBe(true);
    expect(metadata.backchannel_logout_session_supported).toBe(true);
    // Front-channel logout is not offered, and discovery says nothing of it.
    expect(metadata.frontchannel_logout_supported).toBeUndefined();
    expect(await outcome(register({ backchannel_logout_uri: 'http://app.example.com/bye' }))).toBe(
      'invalid_client_metadata',
    );
    const https = await register({ backchannel_logout_uri: 'https://app.example.com/bye' });
    expect(https.config.clientMetadata().backchannel_logout_uri).toBe('https://app.example.com/bye');
  });

  it('signing out of Portico sends each app signed in through this browser a logout token it verifies', async () => {
    const receiver = await logoutReceiver();
    try {
      const rp = await register({
        backchannel_logout_uri: receiver.uri,
        backchannel_logout_session_required: true,
      });
      const quiet = await register(); // no back-channel URI: nothing is sent to it
      const browser = server.browser();
      const { userId } = await signInBySms(server, browser);
      const email = `bc-${randomUUID().slice(0, 8)}@example.com`;
      await server.app.db.updateTable('users').set({ email }).where('id', '=', userId).execute();
      const tokens = await codeFlow(rp, browser, 'openid profile email phone');
      await codeFlow(quiet, browser, 'openid');
      const sid = tokens.claims()?.sid;
      expect(sid, 'the ID token names the session the logout token will name').toBeTruthy();
      // Another person signing out elsewhere: nothing for this app.
      const other = server.browser();
      await signInBySms(server, other);
      expect((await other.post(paths.web.logout)).body.message).toBe('success');
      expect(receiver.tokens).toEqual([]);

      expect((await browser.post(paths.web.logout)).body.message).toBe('success');
      const claims = await verifyLogoutToken(await receiver.next(), rp.clientId);
      expect(claims).toMatchObject({ sub: userId, sid });
      // The logout token carries who and which session, nothing personal.
      for (const personal of ['email', 'phone_number', 'name', 'picture'])
        expect(claims[personal], personal).toBeUndefined();
      expect(JSON.stringify(claims)).not.toContain(email);
      // The provider's session of this browser ended with Portico's.
      const sessions = await server.app.db
        .selectFrom('open_auth_records' as never)
        .select('id' as never)
        .where('model' as never, '=', 'Session' as never)
        .where('account_id' as never, '=', userId as never)
        .execute();
      expect(sessions).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('the end-session endpoint notifies the apps too, once', async () => {
    const receiver = await logoutReceiver();
    try {
      const rp = await register({ backchannel_logout_uri: receiver.uri });
      const browser = server.browser();
      const { userId } = await signInBySms(server, browser);
      const tokens = await codeFlow(rp, browser, 'openid');
      const end = client.buildEndSessionUrl(rp.config, {
        id_token_hint: tokens.id_token as string,
        post_logout_redirect_uri: LOGGED_OUT,
      });
      const question = await browser.get(`${end.pathname}${end.search}`);
      const xsrf = question.raw.body.match(/name="xsrf" value="([^"]+)"/)?.[1] ?? '';
      const confirmed = await browser.post('/oauth/session/end/confirm', { xsrf, logout: 'yes' });
      expect(confirmed.status).toBe(303);
      expect(await isSignedIn(browser)).toBe(false);
      const claims = await verifyLogoutToken(await receiver.next(), rp.clientId);
      expect(claims.sub).toBe(userId);
      expect(receiver.tokens, 'the Portico sign-out that followed sent no second token').toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('plan PAR (as FAPI 2.0 runs it): pushed authorization requests, RFC 9126', () => {
  it("openid-client's PAR: the pushed request becomes a request_uri the person approves", async () => {
    const rp = await register();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const tokens = await codeFlow(rp, browser, 'openid profile', { par: true });
    expect(tokens.claims()?.sub).toBe(userId);
  });

  it('a client registered to require PAR: a plain authorization request is refused, a pushed one works', async () => {
    const rp = await register({ require_pushed_authorization_requests: true });
    const browser = server.browser();
    await signInBySms(server, browser);
    const plain = client.buildAuthorizationUrl(rp.config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const refused = await follow(browser, plain.href, REDIRECT);
    expect(refused.callback?.searchParams.get('error')).toBe('invalid_request');
    expect(refused.callback?.searchParams.get('code')).toBeNull();
    expect((await codeFlow(rp, browser, 'openid', { par: true })).access_token).toBeTruthy();
  });
});

describe('plan DPoP (as FAPI 2.0 runs it): sender-constrained tokens, RFC 9449', () => {
  it("openid-client's DPoP: bound tokens; userinfo and refresh need the key's proof; as a bearer token it fails", async () => {
    const rp = await register();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const dpop = client.getDPoPHandle(rp.config, await client.randomDPoPKeyPair());
    const tokens = await codeFlow(rp, browser, 'openid profile', { dpop, par: true });
    expect(tokens.token_type).toBe('dpop');
    const me = await client.fetchUserInfo(rp.config, tokens.access_token, userId, { DPoP: dpop });
    expect(me.sub).toBe(userId);
    expect(await outcome(client.fetchUserInfo(rp.config, tokens.access_token, userId))).not.toBe('success');
    const otherKey = client.getDPoPHandle(rp.config, await client.randomDPoPKeyPair());
    expect(
      await outcome(client.fetchUserInfo(rp.config, tokens.access_token, userId, { DPoP: otherKey })),
    ).not.toBe('success');
    const refreshed = await client.refreshTokenGrant(rp.config, tokens.refresh_token as string, undefined, {
      DPoP: dpop,
    });
    expect(refreshed.token_type).toBe('dpop');
  });
});

describe('plan config (oidcc-config): resource indicators off, RFC 8707', () => {
  it('a resource parameter changes nothing: the token is the provider’s own, for userinfo', async () => {
    const rp = await register();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const { verifier, challenge } = pkce();
    const state = randomState();
    const url = client.buildAuthorizationUrl(rp.config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      resource: 'https://api.example.com/',
    });
    const callback = await approve(browser, url.href);
    const tokens = await client.authorizationCodeGrant(rp.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect((await client.fetchUserInfo(rp.config, tokens.access_token, userId)).sub).toBe(userId);
  });
});

describe('plan dynamic (oidcc-dynamic): registration refuses redirects off https but for loopback', () => {
  it('RFC 7591: http to a host on the network is invalid_redirect_uri; http on loopback is accepted', async () => {
    const cases: [Partial<client.ClientMetadata>, string][] = [
      [{ redirect_uris: ['http://app.example.com/callback'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://10.0.0.5/callback'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://user:pw@app.example.com/callback'] }, 'invalid_redirect_uri'],
      [{ post_logout_redirect_uris: ['http://app.example.com/bye'] }, 'invalid_client_metadata'],
    ];
    for (const [metadata, error] of cases) {
      expect(await outcome(register(metadata)), JSON.stringify(metadata)).toBe(error);
    }
    for (const redirect of ['http://localhost:8080/cb', 'http://[::1]:8080/cb', 'https://app.example.com/cb'])
      expect((await register({ redirect_uris: [redirect] })).clientId).toBeTruthy();
  });
});

describe('plan device (RFC 8628): the device authorization grant', () => {
  const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
  const registerDevice = () =>
    register({
      client_name: 'Stock CLI',
      redirect_uris: [],
      post_logout_redirect_uris: [],
      response_types: [],
      grant_types: [DEVICE_GRANT, 'refresh_token'],
      token_endpoint_auth_method: 'none',
    });
  const hidden = (html: string, name: string) =>
    html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';

  /** The person's part, in a browser signed in to Portico: the code, its confirmation, consent. */
  async function confirmOnPortico(browser: Browser, verification: string, userCode: string) {
    const entry = new URL(verification);
    const typed = await browser.get(`${entry.pathname}${entry.search}`, { 'accept-language': 'en' });
    expect(typed.status).toBe(200);
    const confirm = await browser.post('/oauth/device', {
      xsrf: hidden(typed.raw.body, 'xsrf'),
      user_code: userCode,
    });
    // The confirmation shows the same code the device shows, to compare.
    expect(confirm.status).toBe(200);
    expect(confirm.raw.body).toContain(userCode);
    expect(confirm.raw.body).toContain('Stock CLI wants to use your Portico account on a device');
    const confirmed = await browser.post(
      '/oauth/device',
      { xsrf: hidden(confirm.raw.body, 'xsrf'), user_code: userCode, confirm: 'yes' },
      { 'accept-language': 'en' },
    );
    let location = String(confirmed.headers.location ?? '');
    let interaction = '';
    for (let step = 0; step < 6 && !interaction; step++) {
      const next = new URL(location, origin);
      if (next.pathname === '/authorization') interaction = next.searchParams.get('interaction') ?? '';
      else location = String((await browser.get(`${next.pathname}${next.search}`)).headers.location ?? '');
    }
    expect(interaction, 'the device request reaches the consent page').toBeTruthy();
    const info = await browser.get(`${paths.open.authInfoV2}?interaction=${interaction}`);
    expect(info.body.data.app_name).toBe('Stock CLI');
    const decided = await browser.post(paths.open.webAuth, { interaction, approve: 1 });
    expect(decided.body.status_code, JSON.stringify(decided.body)).toBe(0);
    let page = await browser.get(new URL(decided.body.data.redirect_url, origin).pathname, {
      'accept-language': 'en',
    });
    for (let step = 0; step < 4 && page.status >= 300 && page.status < 400; step++) {
      const next = new URL(String(page.headers.location), origin);
      page = await browser.get(`${next.pathname}${next.search}`, { 'accept-language': 'en' });
    }
    expect(page.status).toBe(200);
    expect(page.raw.body).toContain('Device connected');
  }

  it("openid-client's device flow: the person confirms the code and consents in a browser; the CLI gets tokens", async () => {
    const cli = await registerDevice();
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const started = await client.initiateDeviceAuthorization(cli.config, { scope: 'openid profile' });
    expect(started.interval).toBe(2);
    expect(started.user_code).toMatch(/^[A-Z]{4}-?[A-Z]{4}$/);
    expect(started.verification_uri).toBe(`${issuer}/device`);
    const polling = client.pollDeviceAuthorizationGrant(cli.config, started);
    await confirmOnPortico(browser, started.verification_uri_complete as string, started.user_code);
    const tokens = await polling;
    expect(tokens.claims()?.sub).toBe(userId);
    expect(typeof tokens.claims()?.name).toBe('string');
    expect((await client.fetchUserInfo(cli.config, tokens.access_token, userId)).sub).toBe(userId);
  });

  it('a device that polls faster than the interval is told slow_down; a wrong code is refused on the page', async () => {
    const cli = await registerDevice();
    const started = await client.initiateDeviceAuthorization(cli.config, { scope: 'openid' });
    const poll = async () => {
      const answer = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: DEVICE_GRANT,
          device_code: started.device_code,
          client_id: cli.clientId,
        }),
      });
      return ((await answer.json()) as { error: string }).error;
    };
    const errors = (await Promise.all([poll(), poll()])).sort();
    expect(errors).toEqual(['authorization_pending', 'slow_down']);

    const browser = server.browser();
    await signInBySms(server, browser);
    const typed = await browser.get('/oauth/device', { 'accept-language': 'zh-CN' });
    expect(typed.raw.body).toContain('连接设备');
    const wrong = await browser.post(
      '/oauth/device',
      { xsrf: hidden(typed.raw.body, 'xsrf'), user_code: 'BCDF-GHJK' },
      { 'accept-language': 'en' },
    );
    expect(wrong.raw.body).toContain('That code is not right');
  });
});

describe('plans basic, PAR and DPoP with a second stock relying party (oauth4webapi)', () => {
  it('registers, discovers, pushes a DPoP-bound PKCE request, validates the ID token and reads userinfo', async () => {
    const insecureFetch = { [oauth.allowInsecureRequests]: true };
    const issuerUrl = new URL(issuer);
    const as = await oauth.processDiscoveryResponse(
      issuerUrl,
      await oauth.discoveryRequest(issuerUrl, insecureFetch),
    );
    expect(as.end_session_endpoint).toBe(`${issuer}/session/end`);
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: 'Second RP',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'client_secret_basic',
        },
        { initialAccessToken: REGISTRATION_TOKEN, ...insecureFetch },
      ),
    );
    const rp: oauth.Client = { client_id: registered.client_id };
    const auth = oauth.ClientSecretBasic(String(registered.client_secret));
    const DPoP = oauth.DPoP(rp, await oauth.generateKeyPair('ES256'));

    const browser = server.browser();
    const { userId, mobile } = await signInBySms(server, browser);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const pushed = await oauth.processPushedAuthorizationResponse(
      as,
      rp,
      await oauth.pushedAuthorizationRequest(
        as,
        rp,
        auth,
        new URLSearchParams({
          redirect_uri: REDIRECT,
          response_type: 'code',
          scope: 'openid profile phone',
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
        }),
        { DPoP, ...insecureFetch },
      ),
    );
    const authorize = new URL(as.authorization_endpoint as string);
    authorize.searchParams.set('client_id', rp.client_id);
    authorize.searchParams.set('request_uri', pushed.request_uri);
    const callback = await approve(browser, authorize.href);

    const params = oauth.validateAuthResponse(as, rp, callback, state);
    const result = await oauth.processAuthorizationCodeResponse(
      as,
      rp,
      await oauth.authorizationCodeGrantRequest(as, rp, auth, params, REDIRECT, verifier, {
        DPoP,
        ...insecureFetch,
      }),
      { requireIdToken: true },
    );
    expect(result.token_type).toBe('dpop');
    const claims = oauth.getValidatedIdTokenClaims(result);
    expect(claims).toMatchObject({ sub: userId, iss: issuer });
    // The mobile number is userinfo's only, never the ID token's.
    expect(claims?.phone_number).toBeUndefined();
    const me = await oauth.processUserInfoResponse(
      as,
      rp,
      userId,
      await oauth.userInfoRequest(as, rp, result.access_token, { DPoP, ...insecureFetch }),
    );
    expect(me).toMatchObject({
      sub: userId,
      phone_number: mobile,
      phone_number_verified: true,
      name: claims?.name,
    });
  });
});

describe('refusals: bad input at the new endpoints answers 4xx', () => {
  it('answers 4xx, never 5xx: unknown device resumes, missing xsrf, a forged id_token_hint, no client', async () => {
    const browser = server.browser();
    await signInBySms(server, browser);
    const answers = [
      await browser.get('/oauth/device/no-such-interaction'),
      await browser.post('/oauth/device', { user_code: 'BCDF-GHJK' }),
      await browser.post('/oauth/session/end/confirm', { logout: 'yes' }),
      await browser.get('/oauth/session/end?id_token_hint=not.a.jwt'),
      await browser.get('/oauth/session/end?client_id=nobody&post_logout_redirect_uri=https://evil.example/'),
      await browser.post('/oauth/device/auth', { client_id: 'nobody', scope: 'openid' }),
      await browser.post('/oauth/request', { client_id: 'nobody' }),
      await browser.post('/oauth/token', {
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: 'nope',
        client_id: 'nobody',
      }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.raw.body.slice(0, 200)).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.raw.body.slice(0, 200)).toBeLessThan(500);
    }
    // Still signed in: none of these ended the session.
    expect(await isSignedIn(browser)).toBe(true);
  });
});
