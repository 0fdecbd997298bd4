import * as client from 'openid-client';
import type { OAuthConfig } from '../../config';
import { PassportError } from '../../errors';

/**
 * The third-party sign-in providers through openid-client (no hand-written protocol code): Google by
 * OpenID Connect discovery at GOOGLE_ISSUER (state, PKCE and nonce; the ID token is verified by the
 * library), GitHub by OAuth 2 at GITHUB_BASE_URL (state and PKCE) with its REST API at GITHUB_API_URL
 * for the profile and the verified e-mail.
 */

export type ProviderName = 'github' | 'google';
export const PROVIDERS: readonly ProviderName[] = ['github', 'google'];

/** What a provider tells about the person who signed in there. */
export interface ProviderIdentity {
  provider: ProviderName;
  /** The provider's stable id: OIDC `sub`, GitHub's numeric user id. */
  subject: string;
  email: string | null;
  /** Whether the provider has verified `email`; an unverified e-mail never links or matches. */
  emailVerified: boolean;
  name: string | null;
  avatarUrl: string | null;
}

/** The one-time secrets of an authorization started in a browser, kept server-side until the callback. */
export interface AuthorizationChecks {
  state: string;
  codeVerifier: string;
  /** Google only. */
  nonce?: string;
}

export interface Provider {
  name: ProviderName;
  /** The provider's authorize address for these checks and this callback. */
  authorizationUrl(checks: AuthorizationChecks, redirectUri: string): Promise<URL>;
  /** Exchanges the code of the callback (`callbackUrl` carries code, state and iss), then reads the profile. */
  exchange(callbackUrl: URL, checks: AuthorizationChecks): Promise<ProviderIdentity>;
}

const insecure = (url: string) => (url.startsWith('http:') ? [client.allowInsecureRequests] : []);

function google(settings: NonNullable<OAuthConfig['google']>): Provider {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        execute: insecure(settings.issuer),
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw new PassportError('oauthExchangeFailed', {}, { cause: error });
      });
    return discovered;
  };
  return {
    name: 'google',
    async authorizationUrl(checks, redirectUri) {
      return client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: checks.state,
        nonce: checks.nonce ?? '',
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async exchange(callbackUrl, checks) {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        ...(checks.nonce ? { expectedNonce: checks.nonce } : {}),
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      const all = { ...info, ...claims };
      const email = typeof all.email === 'string' ? all.email.trim().toLowerCase() : null;
      return {
        provider: 'google',
        subject: claims.sub,
        email,
        emailVerified: email !== null && all.email_verified === true,
        name: typeof all.name === 'string' ? all.name : null,
        avatarUrl: typeof all.picture === 'string' ? all.picture : null,
      };
    },
  };
}

interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  avatar_url: string | null;
}
interface GitHubEmail {
  email: string;
  verified: boolean;
  primary: boolean;
}

function github(settings: NonNullable<OAuthConfig['github']>): Provider {
  const config = new client.Configuration(
    {
      issuer: settings.baseUrl,
      authorization_endpoint: `${settings.baseUrl}/login/oauth/authorize`,
      token_endpoint: `${settings.baseUrl}/login/oauth/access_token`,
    },
    settings.clientId,
    settings.clientSecret,
  );
  for (const option of [...insecure(settings.baseUrl), ...insecure(settings.apiUrl)]) option(config);

  const api = async <T>(token: string, path: string): Promise<T> => {
    const response = await client.fetchProtectedResource(
      config,
      token,
      new URL(`${settings.apiUrl}${path}`),
      'GET',
      undefined,
      new Headers({ accept: 'application/vnd.github+json' }),
    );
    if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
    return (await response.json()) as T;
  };

  return {
    name: 'github',
    async authorizationUrl(checks, redirectUri) {
      return client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'read:user user:email',
        state: checks.state,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async exchange(callbackUrl, checks) {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
      });
      const user = await api<GitHubUser>(tokens.access_token, '/user');
      if (!Number.isSafeInteger(user.id)) throw new Error('GitHub /user without a numeric id');
      const emails = await api<GitHubEmail[]>(tokens.access_token, '/user/emails').catch(
        () => [] as GitHubEmail[],
      );
      const primary = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
      return {
        provider: 'github',
        subject: String(user.id),
        email: primary ? primary.email.trim().toLowerCase() : null,
        emailVerified: primary !== undefined,
        name: user.name ?? user.login,
        avatarUrl: user.avatar_url,
      };
    },
  };
}

/** The configured providers by name; a provider without its client id and secret is absent. */
export function createProviders(config: OAuthConfig): Partial<Record<ProviderName, Provider>> {
  return {
    ...(config.google ? { google: google(config.google) } : {}),
    ...(config.github ? { github: github(config.github) } : {}),
  };
}

/** `platform_app_id` names the provider: `github` or `google` (case-insensitive). */
export function providerNameOf(platformAppId: string | number | undefined): ProviderName | undefined {
  const name = String(platformAppId ?? '').toLowerCase();
  return (PROVIDERS as readonly string[]).includes(name) ? (name as ProviderName) : undefined;
}
