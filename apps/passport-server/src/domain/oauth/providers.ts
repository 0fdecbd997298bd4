import * as client from 'openid-client';
import type { OAuthConfig } from '../../config';
import { PassportError } from '../../errors';

/**
 * The third-party sign-in providers: Google by OpenID Connect discovery at GOOGLE_ISSUER (state, PKCE
 * and nonce; the ID token is verified by openid-client), GitHub by OAuth 2 at GITHUB_BASE_URL (state and
 * PKCE, openid-client) with its REST API at GITHUB_API_URL for the profile and the verified e-mail, and
 * WeChat's website sign-in (QR connect) at WECHAT_BASE_URL and WECHAT_API_URL, whose protocol is not
 * OAuth 2 as a library speaks it (below).
 */

/** The providers by name: the one list (the linked identities' column, `platform_app_id`, the routes). */
export const PROVIDERS = ['github', 'google', 'wechat'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

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

/** WeChat's answers: `errcode` (non-zero) and `errmsg` in a 200 on a refusal. */
interface WeChatAnswer {
  errcode?: number;
  errmsg?: string;
}
interface WeChatToken extends WeChatAnswer {
  access_token?: string;
  openid?: string;
  unionid?: string;
}
interface WeChatUser extends WeChatAnswer {
  openid?: string;
  unionid?: string;
  nickname?: string;
  headimgurl?: string;
}

/** How long a call to WeChat's API may take before the sign-in is refused. */
const WECHAT_TIMEOUT_MS = 10_000;

/**
 * WeChat's website sign-in ("QR connect", docs/third-party-sign-in.md): the browser goes to WeChat's
 * qrconnect page, which shows a QR code; the person scans it with the WeChat app and confirms there,
 * and WeChat sends the browser back with a code. The protocol is not RFC 6749 as OAuth libraries speak
 * it — the app's `appid` and `secret` are query parameters of a GET token request, a refusal is a 200
 * with `errcode` — so its two API calls are written here. WeChat has no PKCE: the state, kept with this
 * browser's flow and taken once, binds the callback to the browser that started. The person is the
 * `unionid` when the app belongs to a WeChat Open Platform account (one id across its apps), else the
 * app's `openid`; WeChat tells no e-mail address.
 */
function wechat(settings: NonNullable<OAuthConfig['wechat']>): Provider {
  const call = async <T extends WeChatAnswer>(path: string, query: Record<string, string>): Promise<T> => {
    const response = await fetch(`${settings.apiUrl}${path}?${new URLSearchParams(query)}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(WECHAT_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`WeChat ${path} answered ${response.status}`);
    const body = (await response.json()) as T;
    // The message only: the URL carries the app's secret and is never logged.
    if (body.errcode) throw new Error(`WeChat ${path} refused: ${body.errcode} ${body.errmsg ?? ''}`);
    return body;
  };
  return {
    name: 'wechat',
    async authorizationUrl(checks, redirectUri) {
      const url = new URL(`${settings.baseUrl}/connect/qrconnect`);
      url.search = new URLSearchParams({
        appid: settings.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'snsapi_login',
        state: checks.state,
      }).toString();
      // WeChat's pages need the fragment to treat the request as a web sign-in.
      url.hash = 'wechat_redirect';
      return url;
    },
    async exchange(callbackUrl, checks) {
      const code = callbackUrl.searchParams.get('code');
      if (!code || callbackUrl.searchParams.get('state') !== checks.state)
        throw new Error('WeChat callback without its code or state');
      const token = await call<WeChatToken>('/sns/oauth2/access_token', {
        appid: settings.appId,
        secret: settings.appSecret,
        code,
        grant_type: 'authorization_code',
      });
      if (!token.access_token || !token.openid) throw new Error('WeChat token answer without openid');
      const user = await call<WeChatUser>('/sns/userinfo', {
        access_token: token.access_token,
        openid: token.openid,
      });
      if (user.openid !== token.openid) throw new Error('WeChat userinfo for another openid');
      return {
        provider: 'wechat',
        subject: user.unionid || token.unionid || token.openid,
        email: null,
        emailVerified: false,
        name: user.nickname || null,
        avatarUrl: user.headimgurl || null,
      };
    },
  };
}

/** The configured providers by name; a provider without its client id and secret is absent. */
export function createProviders(config: OAuthConfig): Partial<Record<ProviderName, Provider>> {
  return {
    ...(config.google ? { google: google(config.google) } : {}),
    ...(config.github ? { github: github(config.github) } : {}),
    ...(config.wechat ? { wechat: wechat(config.wechat) } : {}),
  };
}

/** `platform_app_id` names the provider: one of PROVIDERS (case-insensitive). */
export function providerNameOf(platformAppId: string | number | undefined): ProviderName | undefined {
  const name = String(platformAppId ?? '').toLowerCase();
  return (PROVIDERS as readonly string[]).includes(name) ? (name as ProviderName) : undefined;
}
