import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { CodeType, ErrorCode, paths } from '../../src/protocol';
import { mobileCode } from './flows';
import { type GitHubPeer, type OidcPeer, startGitHubPeer, startOidcPeer } from './oauth-peers';
import { type Browser, freshMobile, type TestServer } from './server';

/** The origin the test servers' third-party callbacks are registered at. */
export const ORIGIN = 'http://localhost:3000';

export type ProviderName = 'google' | 'github';

/**
 * The third-party providers on loopback: a real OpenID provider as Google (GOOGLE_ISSUER) and a
 * GitHub-shaped server (GITHUB_BASE_URL, GITHUB_API_URL), with the server configuration that names them.
 */
export interface ThirdPartyPeers {
  google: OidcPeer;
  github: GitHubPeer;
  /** The `oauth` configuration of a server that signs in through these peers. */
  oauthConfig(): {
    google: { clientId: string; clientSecret: string; issuer: string };
    github: { clientId: string; clientSecret: string; baseUrl: string; apiUrl: string };
    devOrigins: string[];
  };
  close(): Promise<void>;
}

export async function startThirdPartyPeers(): Promise<ThirdPartyPeers> {
  const google = await startOidcPeer({
    clientId: 'portico-google',
    clientSecret: 'google-secret-0123456789',
    redirectUris: [`${ORIGIN}/google-oauth-callback`],
  });
  const github = await startGitHubPeer({
    clientId: 'portico-github',
    clientSecret: 'github-secret-0123456789',
  });
  return {
    google,
    github,
    oauthConfig: () => ({
      google: { clientId: 'portico-google', clientSecret: 'google-secret-0123456789', issuer: google.issuer },
      github: {
        clientId: 'portico-github',
        clientSecret: 'github-secret-0123456789',
        baseUrl: github.baseUrl,
        apiUrl: github.apiUrl,
      },
      devOrigins: ['http://localhost:5173'],
    }),
    async close() {
      await google.close();
      await github.close();
    },
  };
}

let nextGitHubId = 1000 + Math.floor(Math.random() * 1000);

/** A person at the provider, with what the provider says about their e-mail; answers their subject. */
export function personAt(
  peers: ThirdPartyPeers,
  provider: ProviderName,
  account: { email?: string; verified?: boolean; name?: string } = {},
): string {
  const name = account.name ?? `Person ${randomBytes(3).toString('hex')}`;
  if (provider === 'google') {
    const sub = `g-${randomBytes(8).toString('hex')}`;
    peers.google.accounts.set(sub, {
      name,
      picture: 'https://example.com/a.png',
      ...(account.email ? { email: account.email, email_verified: account.verified ?? true } : {}),
    });
    return sub;
  }
  nextGitHubId += 1;
  peers.github.users.set(nextGitHubId, {
    id: nextGitHubId,
    login: `octo${nextGitHubId}`,
    name,
    avatar_url: 'https://example.com/o.png',
    emails: account.email
      ? [{ email: account.email, verified: account.verified ?? true, primary: true }]
      : [],
  });
  return String(nextGitHubId);
}

/** Starts at the redirect and signs in at the provider: answers the callback page's parameters. */
export async function callbackFrom(
  peers: ThirdPartyPeers,
  browser: Browser,
  provider: ProviderName,
  who: string,
  query = '',
) {
  const start = await browser.get(`${paths.passport.authLogin}?platform_app_id=${provider}&next=/${query}`);
  expect(start.status, JSON.stringify(start.body)).toBe(302);
  const location = String(start.headers.location);
  const callback =
    provider === 'google'
      ? await peers.google.signIn(location, who)
      : await peers.github.approve(location, Number(who));
  expect(callback.pathname).toBe(`/${provider}-oauth-callback`);
  return {
    platform_app_id: provider,
    code: callback.searchParams.get('code') ?? '',
    state: callback.searchParams.get('state') ?? '',
    ...(callback.searchParams.get('iss') ? { iss: callback.searchParams.get('iss') ?? '' } : {}),
  };
}

/** A linked identity's owner: signs up by SMS and links through mobile/bind_login. */
export async function linkedByMobile(server: TestServer, peers: ThirdPartyPeers, provider: ProviderName) {
  const browser = server.browser();
  const who = personAt(peers, provider);
  const linked = await linkByMobile(server, browser, await callbackFrom(peers, browser, provider, who));
  return { browser, who, ...linked };
}

/**
 * A provider's callback (`callback`, the sign-in's body) that no account links yet, then a new account
 * by an SMS code (mobile/bind_login) that the provider's account is linked to.
 */
export async function linkByMobile(
  server: TestServer,
  browser: Browser,
  callback: Record<string, string | number>,
) {
  const exchange = await browser.post(paths.web.authLoginOnly, callback);
  expect(exchange.body.data.error_code).toBe(ErrorCode.oauthNotLinked);
  const mobile = freshMobile();
  const code = await mobileCode(server, browser, mobile, CodeType.mobileLogin);
  const bound = await browser.post(paths.web.mobileBindLogin, {
    profile_key: exchange.body.data.profile_key,
    mobile,
    code,
  });
  expect(bound.body.message, JSON.stringify(bound.body)).toBe('success');
  return { mobile, userId: bound.body.data.user_id as string };
}

/** The account's linked identities. */
export const linksOf = (server: TestServer, userId: string) =>
  server.app.db.selectFrom('linked_identities').selectAll().where('user_id', '=', userId).execute();
