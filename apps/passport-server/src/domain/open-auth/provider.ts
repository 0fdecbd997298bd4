/// <reference path="./oidc-provider.d.ts" />
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import Provider, { type Configuration, errors, interactionPolicy } from 'oidc-provider';
import { exposureOf, isLoopbackOrigin, type OpenScope, openScopesOf, STANDARD_SCOPES } from '../../config';
import { hmac } from '../../lib/crypto';
import { imageUrl } from '../profile/images';
import { adapterClass, type OpenAuthDatabase } from './adapter';
import {
  deviceSuccessSource,
  logoutSource,
  type ProviderPageContext,
  postLogoutSuccessSource,
  renderError,
  userCodeConfirmSource,
  userCodeInputSource,
} from './pages';
import { redirectUriProblem } from './redirect-uri';

/** Where the provider is mounted; the issuer is PUBLIC_ORIGIN + this. */
export const OPEN_AUTH_MOUNT = '/oauth';

/** The life of each record, in seconds (SECURITY.md: a code lives ≤ 10 minutes). */
export const OPEN_AUTH_TTL = {
  AuthorizationCode: 600,
  AccessToken: 3600,
  IdToken: 3600,
  RefreshToken: 30 * 86400,
  Interaction: 1800,
  DeviceCode: 600,
  Session: 14 * 86400,
  Grant: 365 * 86400,
} as const;

const ownToken = async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) =>
  token.clientId === client.clientId;

/** RFC 8628: the device code grant, and the polling interval a device is told (seconds). */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const DEVICE_POLL_INTERVAL = 5;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Buffer.isBuffer(value);

/** Where the provider sends a person to sign in and consent: the web app's authorization page. */
export const CONSENT_PAGE = '/authorization';

/** What the mount hands the provider about the Fastify request: the Portico account signed in, if any. */
export interface PorticoRequest extends IncomingMessage {
  porticoUserId?: string | null;
  /** Ends the Portico session of this request; answers the Set-Cookie values that clear it. */
  porticoSignOut?: () => Promise<string[]>;
}

/** The claims each scope releases (docs/open-authorization.md, "Scopes and claims"). */
export const SCOPE_CLAIMS: Record<string, readonly string[]> = {
  openid: ['sub'],
  user_info: ['name', 'picture'],
  ...Object.fromEntries(STANDARD_SCOPES.map((scope) => [scope.name, scope.claims])),
};

/** Claims userinfo answers and the ID token never carries (docs/open-authorization.md). */
export const CONTACT_CLAIMS = ['email', 'email_verified', 'phone_number', 'phone_number_verified'] as const;

/** The provider's client metadata validation, for every registration path: the redirects we accept. */
function checkRedirects(metadata: {
  redirect_uris?: unknown;
  post_logout_redirect_uris?: unknown;
  backchannel_logout_uri?: unknown;
}) {
  for (const key of ['redirect_uris', 'post_logout_redirect_uris', 'backchannel_logout_uri'] as const) {
    const value = metadata[key];
    const uris = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(uris)) continue;
    for (const uri of uris) {
      const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'not a string';
      if (problem) {
        const error = key === 'redirect_uris' ? errors.InvalidRedirectUri : errors.InvalidClientMetadata;
        throw new error(`${key}: ${String(uri)} is ${problem}`);
      }
    }
  }
}

export interface OpenAuth {
  readonly issuer: string;
  /** Every scope an app may ask for: user_info first, then the deployment's (OPEN_SCOPES). */
  readonly scopes: readonly OpenScope[];
  /** The provider, built with the active signing key (rebuilt when the key ring rotates). */
  provider(): Promise<Provider>;
  /**
   * The person signed out of Portico in this browser: the provider's session of the browser (its
   * session cookie, when it names the same person) ends, and every app signed in through it that
   * registered a `backchannel_logout_uri` gets a logout token (OpenID Connect Back-Channel Logout).
   */
  signedOut(cookies: Record<string, string | undefined>, userId: string): Promise<void>;
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
  const scopes = openScopesOf(config);
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
  // The provider refuses to call special-use addresses (loopback, private ranges: SSRF). A deployment
  // whose own origin is this machine only (development, tests) may call apps on this machine too.
  const loopbackApps = exposureOf(config) === 'this machine';
  const providerFetch = (url: string | URL, options: RequestInit & { dispatcher?: unknown }) => {
    if (loopbackApps && isLoopbackOrigin(new URL(url).origin)) delete options.dispatcher;
    return fetch(url, options);
  };

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
    claims: {
      ...SCOPE_CLAIMS,
      ...Object.fromEntries(config.openAuth.scopes.map((scope) => [scope.name, []])),
    },
    // The ID token carries the claims of the scopes granted, as userinfo does (not only those a
    // `claims` request parameter names): a client reads name and e-mail from the ID token alone.
    conformIdTokenClaims: false,
    scopes: ['openid', 'offline_access', ...scopes.map((scope) => scope.name)],
    extraParams: ['optional_scope'],
    extraClientMetadata: {
      properties: ['portico_owner'],
      // Called for every client the provider builds (registration, and each one it loads): the
      // fourth argument is the whole metadata, so the redirect rule holds for RFC 7591 clients too.
      validator(_ctx: unknown, key: string, value: unknown, metadata: Record<string, unknown>) {
        if (key !== 'portico_owner') return;
        if (value !== undefined && typeof value !== 'string')
          throw new errors.InvalidClientMetadata('portico_owner must be a string');
        checkRedirects(metadata);
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
      // A client may revoke only its own tokens.
      revocation: { enabled: true, allowedPolicy: ownToken },
      // A product API listed in OPEN_RESOURCE_SERVERS introspects another client's access token (an
      // agent's, to serve it), never its refresh token: that one is only ever sent to us, and an API
      // that holds one was handed a secret it must not learn is live.
      introspection: {
        enabled: true,
        allowedPolicy: async (
          ctx: unknown,
          client: { clientId: string },
          token: { clientId?: string; kind?: string },
        ) =>
          ((config.openAuth.resourceServers ?? []).includes(client.clientId) &&
            token.kind === 'AccessToken') ||
          ownToken(ctx, client, token),
      },
      userinfo: { enabled: true },
      // RP-initiated logout: ends the provider's session and the person's Portico session
      // (routes/open/provider-mount), back to a post_logout_redirect_uri the client registered.
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      // Back-channel logout (OpenID Connect Back-Channel Logout 1.0): an app that registered a
      // backchannel_logout_uri gets a logout token (ES256, with `sid`) when the person's session ends,
      // by the end-session endpoint or by signing out of Portico (`signedOut`).
      backchannelLogout: { enabled: true },
      // Pushed authorization requests (RFC 9126): on, optional; a client registered with
      // require_pushed_authorization_requests must use them.
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
      // DPoP (RFC 9449): on; a client that sends a proof gets sender-constrained tokens.
      dPoP: { enabled: true },
      // Resource indicators (RFC 8707): off. No Portico API accepts audience-restricted access tokens
      // from the provider; with it on, a `resource` parameter would get a token for that resource
      // server instead of the opaque one introspection and userinfo serve. A `resource` is ignored.
      resourceIndicators: { enabled: false },
      claimsParameter: { enabled: false },
      // The device authorization grant (RFC 8628) for CLIs, TVs and agents: a client registered with
      // the device_code grant type; the person confirms at /oauth/device and consents on Portico's
      // page. The polling interval is enforced below (slow_down).
      deviceFlow: {
        enabled: true,
        userCodeInputSource,
        userCodeConfirmSource,
        successSource: deviceSuccessSource,
      },
      registration: config.openAuth.registrationToken
        ? { enabled: true, initialAccessToken: config.openAuth.registrationToken }
        : { enabled: false },
    },
    // A refresh token for every client allowed the grant (no offline_access dance), rotated on each
    // use; a reused one revokes the whole grant (refresh_token.js in the provider).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // An app's authorisation outlives the browser session it was given in: signing out (also through
    // the end-session endpoint) leaves its tokens alone; the person revokes an app under
    // "Authorised apps".
    expiresWithSession: () => false,
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
        // A frozen (banned) account has no account here: its apps' refresh tokens and userinfo stop.
        .where('is_frozen', '=', 0)
        .executeTakeFirst();
      if (!user) return undefined;
      // Every claim Portico knows; the provider releases those of the scopes granted (SCOPE_CLAIMS).
      async function claimsOf(person: typeof user & object) {
        const organisations = await app.db
          .selectFrom('deputies')
          .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
          .select(['subjects.id', 'subjects.name', 'deputies.deputy_name', 'deputies.is_manager'])
          .where('deputies.user_id', '=', sub)
          .where('deputies.is_frozen', '=', 0)
          .where('subjects.is_frozen', '=', 0)
          .orderBy('subjects.name')
          .execute();
        return {
          name: person.screen_name,
          ...(person.avatar_key ? { picture: `${config.publicOrigin}${imageUrl(person.avatar_key)}` } : {}),
          updated_at: Math.floor(Number(person.updated_at) / 1000),
          // An e-mail address or a mobile number is bound to an account only by a code sent to it.
          ...(person.email ? { email: person.email, email_verified: true } : {}),
          ...(person.mobile ? { phone_number: person.mobile, phone_number_verified: true } : {}),
          organisations: organisations.map((o) => ({
            id: o.id,
            name: o.name,
            member_name: o.deputy_name,
            manager: Number(o.is_manager) === 1,
          })),
        };
      }
      return {
        accountId: sub,
        async claims(use: string) {
          const claims: Record<string, unknown> = { sub, ...(await claimsOf(user)) };
          // The ID token travels through browsers (an end-session URL's id_token_hint, a client's
          // logs): the person's e-mail address and mobile number are never in it, only at userinfo.
          if (use === 'id_token') for (const claim of CONTACT_CLAIMS) delete claims[claim];
          return claims;
        },
      };
    },
    renderError,
    fetch: providerFetch,
  });

  /**
   * RFC 8628 §3.5: a device polls at most every `interval` seconds, and 5 seconds more after each
   * slow_down. A poll within the interval of the previous one is answered slow_down, by an atomic
   * gate in the server's store (shared by every server of the deployment).
   */
  const pollInterval = config.openAuth.devicePollSeconds ?? DEVICE_POLL_INTERVAL;
  async function devicePace(deviceCode: string): Promise<'ok' | 'too soon'> {
    const key = createHash('sha256').update(deviceCode).digest('base64url');
    const slowed = await app.store.count(`device:slow:${key}`);
    // A client waits the interval after each answer, so a poll on time never meets the gate; the
    // slack allows for the network (a second at the standard interval, less at a test's shorter one).
    const slack = pollInterval >= DEVICE_POLL_INTERVAL ? 1000 : 200;
    const gate = (pollInterval + 5 * slowed) * 1000 - slack;
    if (await app.store.setIfAbsent(`device:poll:${key}`, '1', gate)) return 'ok';
    await app.store.incr(`device:slow:${key}`, OPEN_AUTH_TTL.DeviceCode * 1000);
    return 'too soon';
  }

  let current: { kid: string; provider: Promise<Provider> } | undefined;
  async function build(): Promise<Provider> {
    const { jwk } = await app.userTokens.keyRing.activeJwk();
    const provider = new Provider(issuer, configuration(jwk as Record<string, unknown>));
    // Forwarded headers are set by the mount from PUBLIC_ORIGIN and Fastify's client address, never
    // taken from the request (routes/open/provider-mount).
    provider.proxy = true;
    provider.on('server_error', (_ctx, error) => app.log.error({ err: error }, 'open authorization failed'));
    provider.on('backchannel.error', (_ctx, error, client) =>
      app.log.warn(
        { err: error, clientId: (client as { clientId?: string } | undefined)?.clientId },
        'a back-channel logout was not delivered',
      ),
    );
    // The provider's own defect on a failed request in a brand-new provider session (a device resume
    // of an unknown id, a device form without its xsrf field): saving the unsaved session in its
    // `finally` throws and hides the request's own error behind a 500. That request was bad input.
    provider.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        if (!(error instanceof TypeError) || !error.message.startsWith('persist can only be called'))
          throw error;
        ctx.status = 400;
        await renderError(ctx as unknown as ProviderPageContext, {
          error: 'invalid_request',
          error_description: 'the request is invalid or has expired',
        });
      }
    });
    provider.use(async (ctx, next) => {
      await next();
      const route = ctx.oidc?.route;
      if (route === 'device_authorization' && ctx.status === 200 && isObject(ctx.body))
        ctx.body = { ...ctx.body, interval: pollInterval };
      if (
        route === 'token' &&
        ctx.oidc?.params?.grant_type === DEVICE_GRANT &&
        isObject(ctx.body) &&
        ctx.body.error === 'authorization_pending'
      ) {
        const pace = await devicePace(String(ctx.oidc.params.device_code ?? ''));
        if (pace === 'too soon')
          ctx.body = {
            error: 'slow_down',
            error_description: `poll at most every ${pollInterval} seconds, 5 more after each slow_down`,
          };
      }
    });
    // RP-initiated logout ends the Portico session too: once the person confirmed (`logout=yes`) and
    // the provider ended its own session, before its redirect goes out. Only when that session named
    // the person signed in to Portico: the provider asks only then (without an account in its session
    // it posts `logout=yes` by itself, which must not end a Portico session nobody was asked about).
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.oidc?.route !== 'end_session_confirm' || !ctx.oidc.params?.logout || ctx.status !== 303) return;
      const req = ctx.req as PorticoRequest;
      if (!req.porticoUserId || ctx.oidc.session?.accountId !== req.porticoUserId) return;
      const cleared = await req.porticoSignOut?.();
      if (cleared?.length) ctx.append('set-cookie', cleared);
    });
    return provider;
  }

  async function currentProvider(): Promise<Provider> {
    const { kid } = await app.userTokens.keyRing.active();
    if (current?.kid !== kid) {
      const provider = build();
      current = { kid, provider };
      provider.catch(() => {
        if (current?.provider === provider) current = undefined;
      });
    }
    return current.provider;
  }

  return {
    issuer,
    scopes,
    provider: currentProvider,
    async signedOut(cookies, userId) {
      const id = cookies[cookieNames.session];
      if (!id) return;
      const provider = await currentProvider();
      const session = await provider.Session.find(id);
      // The cookie's session is one the provider keeps for this very person: anything else is left alone.
      if (!session || session.accountId !== userId) return;
      const notices = Object.keys(session.authorizations ?? {}).map(async (clientId) => {
        const client = await provider.Client.find(clientId).catch(() => undefined);
        if (!client?.backchannelLogoutUri) return;
        try {
          await client.backchannelLogout(userId, session.sidFor(clientId));
        } catch (error) {
          app.log.warn({ err: error, clientId }, 'a back-channel logout was not delivered');
        }
      });
      await session.destroy();
      await Promise.all(notices);
    },
  };
}
