import { getOpenAuthToken } from '@portico/account-sdk';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, paths } from '../../src/protocol';
import { signInBySms } from '../support/flows';
import { follow, pkce, randomState, rpOptions, useInject } from '../support/open-auth-client';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { Browser } from '../support/server';

/**
 * open/auth/token (docs/open-authorization.md, "The authorization a token carries"): an app that ended
 * the connect flow at the token endpoint hands its access token to the passport, in the body, and reads
 * back the person, the app, the scopes granted and the claims — in the spec's 'app' shape by default,
 * userinfo's with `response_format_type=oidc` — with its `state` echoed. The token is judged by the
 * provider itself: a revoked, refresh, unknown or URL-borne token is refused with a 4xx and a code.
 */

const ISSUER = 'http://localhost:3000/oauth';
const REGISTRATION_TOKEN = 'initial-access-token-auth-token-0123456789';
const REDIRECT = 'https://app.example.com/callback';

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({ openAuth: { registrationToken: REGISTRATION_TOKEN, scopes: [] } });
});
afterAll(async () => server?.close());

/** An app registered by RFC 7591, a person who signs in and approves, and the tokens the app got. */
async function authorizedApp(scope = 'openid user_info phone') {
  const registered = await client.dynamicClientRegistration(
    new URL(ISSUER),
    {
      client_name: 'Video Club',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    undefined,
    { initialAccessToken: REGISTRATION_TOKEN, ...rpOptions(server.app) },
  );
  const { client_id: clientId, client_secret: secret } = registered.clientMetadata();
  const config = useInject(
    await client.discovery(
      new URL(ISSUER),
      clientId,
      { client_secret: String(secret) },
      client.ClientSecretBasic(String(secret)),
      rpOptions(server.app),
    ),
    server.app,
  );
  const browser = new Browser(server.app);
  const { mobile } = await signInBySms(server, browser);
  const { verifier, challenge } = pkce();
  const state = randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  });
  const first = await follow(browser, url.href, REDIRECT);
  const decided = await browser.post(paths.open.webAuth, {
    interaction: first.interaction ?? '',
    approve: 1,
  });
  const back = await follow(browser, decided.body.data.redirect_url, REDIRECT);
  const tokens = await client.authorizationCodeGrant(config, back.callback as URL, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  const sub = tokens.claims()?.sub as string;
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, sub);
  return { config, clientId, tokens, sub, userinfo, mobile };
}

/** A back end's plain POST, no cookie and no CSRF token: what the route answers on the wire. */
const post = (path: string, form: Record<string, string>) =>
  fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

describe('open/auth/token: the authorization an access token carries', () => {
  it("answers the spec's 'app' shape by default, with the claims userinfo answers and the state echoed", async () => {
    const { clientId, tokens, sub, userinfo } = await authorizedApp();
    const sdk = server.sdkBrowser().client();
    const result = await getOpenAuthToken(sdk, {
      token: tokens.access_token,
      client_key: clientId,
      state: 'xyz-42',
    });
    const { sub: _sub, ...claims } = userinfo;
    expect(result).toEqual({
      open_id: sub,
      client_key: clientId,
      app_name: 'Video Club',
      scope: expect.arrayContaining(['user_info', 'phone']),
      expires_in: expect.any(Number),
      user: claims,
      state: 'xyz-42',
    });
    expect(result.scope, 'openid is plumbing, not a scope the person granted').toHaveLength(2);
    expect(result.user.phone_number, 'the phone scope was granted').toBeTruthy();
    expect(result.expires_in).toBeGreaterThan(0);
    expect(result.expires_in).toBeLessThanOrEqual(3600);
  });

  it("answers userinfo's claims with RFC 7662's names for response_format_type=oidc", async () => {
    const { clientId, tokens, userinfo } = await authorizedApp('openid user_info');
    const sdk = server.sdkBrowser().client();
    const result = await getOpenAuthToken(sdk, {
      token: tokens.access_token,
      client_key: clientId,
      state: 's',
      response_format_type: 'oidc',
    });
    expect(result).toEqual({
      ...userinfo,
      client_id: clientId,
      scope: tokens.scope,
      exp: expect.any(Number),
      state: 's',
    });
    expect(result.phone_number, 'a scope not granted releases nothing').toBeUndefined();
  });

  it('leaves state out when none was sent, and takes no CSRF token: the bearer token is the credential', async () => {
    const { clientId, tokens } = await authorizedApp('openid user_info');
    const answer = await post(paths.open.authToken, { token: tokens.access_token, client_key: clientId });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { status_code: number; data: Record<string, unknown> };
    expect(body.status_code).toBe(0);
    expect(body.data).not.toHaveProperty('state');
  });

  it('refuses a revoked access token, a refresh token and a made-up one as OPEN_TOKEN_INVALID (401)', async () => {
    const { config, clientId, tokens } = await authorizedApp('openid user_info');
    const sdk = server.sdkBrowser().client();
    const asked = (token: string) => getOpenAuthToken(sdk, { token, client_key: clientId });
    await rejectsWith(asked(tokens.refresh_token as string), 'openTokenInvalid');
    await rejectsWith(asked('not-a-token-of-ours'), 'openTokenInvalid');
    await rejectsWith(asked('a b\nc'), 'openTokenInvalid');
    await client.tokenRevocation(config, tokens.access_token);
    await rejectsWith(asked(tokens.access_token), 'openTokenInvalid');
    const answer = await post(paths.open.authToken, { token: tokens.access_token, client_key: clientId });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { status_code: number }).status_code).toBe(ErrorCode.openTokenInvalid);
  });

  it("refuses another app's token: an app cannot sign its users in elsewhere with the tokens it holds", async () => {
    const collector = await authorizedApp('openid user_info');
    const other = await authorizedApp('openid user_info');
    const sdk = server.sdkBrowser().client();
    // The collector's token, presented at the other app's back end, which names itself.
    await rejectsWith(
      getOpenAuthToken(sdk, { token: collector.tokens.access_token, client_key: other.clientId }),
      'openTokenInvalid',
    );
    // The same token for the app it was issued to still answers.
    const own = await getOpenAuthToken(sdk, {
      token: collector.tokens.access_token,
      client_key: collector.clientId,
    });
    expect(own.open_id).toBe(collector.sub);
  });

  it('refuses a token in the URL (400, even a valid one), a GET, a missing token and an unknown shape', async () => {
    const { clientId, tokens } = await authorizedApp('openid user_info');
    const inQuery = await fetch(
      `${server.baseUrl}${paths.open.authToken}?token=${encodeURIComponent(tokens.access_token)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.access_token, client_key: clientId }),
      },
    );
    expect(inQuery.status).toBe(400);
    expect(((await inQuery.json()) as { status_code: number }).status_code).toBe(ErrorCode.openTokenInQuery);
    const get = await fetch(`${server.baseUrl}${paths.open.authToken}`);
    expect(get.status).toBe(404);
    const missing = await post(paths.open.authToken, {});
    expect(missing.status).toBe(400);
    const noApp = await post(paths.open.authToken, { token: tokens.access_token });
    expect(noApp.status).toBe(400);
    expect(((await noApp.json()) as { status_code: number }).status_code).toBe(ErrorCode.invalidParam);
    const unknown = await post(paths.open.authToken, {
      token: tokens.access_token,
      client_key: clientId,
      response_format_type: 'xml',
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { status_code: number }).status_code).toBe(ErrorCode.invalidParam);
  });
});
