/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import Provider, { type Configuration, errors, interactionPolicy } from 'oidc-provider';
import { type OpenScope, USER_INFO_SCOPE } from '../../config';
import { escapeHtml } from '../../http/bilingual-page';
import { hmac } from '../../lib/crypto';
import { imageUrl } from '../profile/images';
import { adapterClass, type OpenAuthDatabase } from './adapter';
import { redirectUriProblem } from './redirect-uris';

/** Where the provider is mounted; the issuer is PUBLIC_ORIGIN + this. */
export const OPEN_AUTH_MOUNT = '/oauth';

/** The life of each record, in seconds (SECURITY.md: a code lives ≤ 10 minutes). */
export const OPEN_AUTH_TTL = {
  AuthorizationCode: 600,
  AccessToken: 3600,
  IdToken: 3600,
  RefreshToken: 30 * 86400,
  Interaction: 1800,
  Session: 14 * 86400,
  Grant: 365 * 86400,
} as const;

const ownToken = async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
  token.clientId === client.clientId;

/** Where the provider sends a person to sign in and consent: the web app's authorization page. */
export const CONSENT_PAGE = '/authorization';

/** What the mount hands the provider about the Fastify request: the Portico account signed in, if any. */
export interface PorticoRequest extends IncomingMessage {
  porticoUserId?: string | null;
}

export interface OpenAuth {
  readonly issuer: string;
  /** Every scope an app may ask for: user_info first, then the deployment's (OPEN_SCOPES). */
  readonly scopes: readonly OpenScope[];
  /** The provider, built with the active signing key (rebuilt when the key ring rotates). */
  provider(): Promise<Provider>;
}

/**
 * Portico as an OAuth 2.0 authorization server and OpenID provider through `oidc-provider` (a certified
 * implementation; no protocol code of our own): authorization code with PKCE S256 only, exact
 * redirect URIs, refresh tokens rotated on every use with reuse detection, userinfo, revocation,
 * introspection, and RFC 7591 registration behind OPEN_REGISTRATION_TOKEN. Records live in the database
 * (./adapter), tokens are signed with the server's key ring, and sign-in and consent are Portico's own
 * page (CONSENT_PAGE) with the person's Portico session.
 */
export function createOpenAuth(app: FastifyInstance): OpenAuth {
  const { config, runtime } = app;
  const issuer = `${config.publicOrigin}${OPEN_AUTH_MOUNT}`;
  const scopes = [USER_INFO_SCOPE, ...config.openAuth.scopes];
  const Adapter = adapterClass(app.db as unknown as Kysely<OpenAuthDatabase>, runtime.now);
  const cookieKey = hmac(app.secret, 'open-auth cookies');
  // Behind https the provider's cookies take the prefixes all of ours take (docs/protocol.md): its
  // session is for the whole host (Path=/, no Domain: `__Host-`), the interaction cookies sit on the
  // consent page's and the resume's paths (`__Secure-`). No other host of the domain can set a
  // `__Host-` cookie here, and nothing on plain http can set either (test/sessions.test.ts).
  const cookieNames = config.publicOrigin.startsWith('https:')
    ? {
        session: '__Host-_session',
        interaction: '__Secure-_interaction',
        resume: '__Secure-_interaction_resume',
      }
    : { session: '_session', interaction: '_interaction', resume: '_interaction_resume' };

  // The login prompt also asks when the provider's own session does not name the person signed in to
  // Portico (signed out, or another account since): the Portico session is the one that counts.
  const policy = interactionPolicy.base();
  policy.get('login')?.checks.add(
    new interactionPolicy.Check(
      'portico_session',
      'the person signed in to Portico is not the one the provider remembers',
      (ctx) => {
        const { req, oidc } = ctx as { req: PorticoRequest; oidc: { session?: { accountId?: string } } };
        return req.porticoUserId && req.porticoUserId === oidc.session?.accountId
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT;
      },
    ),
  );

  const configuration = (jwk: Record<string, unknown>): Configuration => ({
    adapter: Adapter,
    clients: [],
    jwks: { keys: [jwk] },
    cookies: { keys: [cookieKey], names: cookieNames },
    claims: { openid: ['sub'], user_info: ['name', 'picture'] },
    scopes: ['openid', 'offline_access', ...scopes.map((scope) => scope.name)],
    extraParams: ['optional_scope'],
    extraClientMetadata: {
      properties: ['portico_owner'],
      // Called once per extra property with the whole metadata: where every client (registered by an
      // operator, RFC 7591, or in the developer console) meets the redirect URI rule.
      validator(_ctx: unknown, key: string, value: unknown, metadata: { redirect_uris?: unknown }) {
        if (key === 'portico_owner' && value !== undefined && typeof value !== 'string')
          throw new Error('portico_owner must be a string');
        const uris = Array.isArray(metadata?.redirect_uris) ? metadata.redirect_uris : [];
        for (const uri of uris) {
          const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'not a string';
          if (problem) throw new errors.InvalidClientMetadata(`redirect_uris: ${problem}`);
        }
      },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // A client may introspect or revoke only its own tokens.
      revocation: { enabled: true, allowedPolicy: ownToken },
      introspection: { enabled: true, allowedPolicy: ownToken },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      registration: config.openAuth.registrationToken
        ? { enabled: true, initialAccessToken: config.openAuth.registrationToken }
        : { enabled: false },
    },
    // A refresh token for every client allowed the grant (no offline_access dance), rotated on each
    // use; a reused one revokes the whole grant (refresh_token.js in the provider).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    revokeGrantPolicy: () => true,
    ttl: { ...OPEN_AUTH_TTL },
    interactions: {
      policy,
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `${CONSENT_PAGE}?interaction=${encodeURIComponent(interaction.uid)}`,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const user = await app.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', sub)
        .where('erased_at', 'is', null)
        .executeTakeFirst();
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            name: user.screen_name,
            ...(user.avatar_key ? { picture: `${config.publicOrigin}${imageUrl(user.avatar_key)}` } : {}),
          };
        },
      };
    },
    async renderError(
      ctx: { type: string; body: string },
      out: { error: string; error_description?: string },
    ) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed · 授权失败</title></head><body><main><h1>授权失败 · Authorization failed</h1><p><code>${escapeHtml(out.error)}</code></p><p>${escapeHtml(out.error_description ?? '')}</p></main></body></html>`;
    },
  });

  let current: { kid: string; provider: Promise<Provider> } | undefined;
  async function build(): Promise<Provider> {
    const { jwk } = await app.userTokens.keyRing.activeJwk();
    const provider = new Provider(issuer, configuration(jwk as Record<string, unknown>));
    // Forwarded headers are set by the mount from PUBLIC_ORIGIN and Fastify's client address, never
    // taken from the request (routes/open/provider-mount).
    provider.proxy = true;
    provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'open authorization failed'));
    return provider;
  }

  return {
    issuer,
    scopes,
    async provider() {
      const { kid } = await app.userTokens.keyRing.active();
      if (current?.kid !== kid) {
        const provider = build();
        current = { kid, provider };
        provider.catch(() => {
          if (current?.provider === provider) current = undefined;
        });
      }
      return current.provider;
    },
  };
}
