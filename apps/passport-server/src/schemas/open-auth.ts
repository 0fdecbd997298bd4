import { Type } from 'typebox';
import { CommonQuery, FORM } from './common';
import { SmsLoginBody } from './login';

/** Open authorization (docs/open-authorization.md): the consent page's calls and the account centre's. */

const Interaction = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const ClientKey = Type.String({ minLength: 1, maxLength: 128 });
const ScopeList = Type.String({ maxLength: 1024 });

export const OpenScopeInfo = Type.Object({ name: Type.String(), zh: Type.String(), en: Type.String() });

export const OpenAuthInfo = Type.Object({
  client_key: Type.String(),
  app_name: Type.String(),
  app_icon: Type.String(),
  scope: Type.Array(OpenScopeInfo),
  optionalScope: Type.Array(OpenScopeInfo),
  user: Type.Union([
    Type.Object({ user_id: Type.String(), name: Type.String(), avatar_url: Type.String() }),
    Type.Null(),
  ]),
  /** The language the app asked the page to speak (its request's `ui_locales`), when it named zh or en. */
  ui_language: Type.Optional(Type.Union([Type.Literal('zh'), Type.Literal('en')])),
});

export const authInfoSchema = {
  summary:
    'Open authorization: the app asking, the scopes it requires and the optional ones, who is signed in',
  tags: ['open-auth'],
  querystring: Type.Intersect([
    CommonQuery,
    Type.Object(
      {
        /** The provider's interaction (the consent page's `interaction` parameter). */
        interaction: Type.Optional(Interaction),
        /** Without an interaction: the app and scopes of a connect redirect, to preview. */
        client_key: Type.Optional(ClientKey),
        scope: Type.Optional(ScopeList),
        optionalScope: Type.Optional(ScopeList),
      },
      { additionalProperties: true },
    ),
  ]),
};

export const OpenAuthDecisionBody = Type.Object(
  {
    interaction: Interaction,
    approve: Type.Integer({ minimum: 0, maximum: 1 }),
    scope: Type.Optional(ScopeList),
  },
  { additionalProperties: true },
);

export const OpenAuthDecision = Type.Object({ redirect_url: Type.String() });

export const decisionSchema = {
  summary: 'Open authorization: the signed-in person approves (with the optional scopes left on) or denies',
  tags: ['open-auth'],
  consumes: FORM,
  querystring: CommonQuery,
  body: OpenAuthDecisionBody,
};

export const ConnectQuery = Type.Object(
  {
    client_key: ClientKey,
    scope: Type.Optional(ScopeList),
    optionalScope: Type.Optional(ScopeList),
    state: Type.Optional(Type.String({ maxLength: 512 })),
    response_type: Type.Optional(Type.Literal('code')),
    redirect_uri: Type.String({ minLength: 1, maxLength: 2048 }),
    code_challenge: Type.Optional(Type.String({ minLength: 43, maxLength: 128 })),
    code_challenge_method: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: true },
);

export const connectSchema = {
  summary:
    'The open-platform connect redirect: client_key, scope, optionalScope, state, response_type (code) and redirect_uri, to the provider and the authorization page',
  tags: ['open-auth'],
  querystring: ConnectQuery,
};

export const connectResumeSchema = {
  summary:
    'Starts again, asking for consent again, the connect request this browser last followed (the open-auth state cookie, 60 days); without one, the authorization page',
  tags: ['open-auth'],
  querystring: CommonQuery,
};

export const AuthorizedApps = Type.Object({
  apps: Type.Array(
    Type.Object({
      client_key: Type.String(),
      app_name: Type.String(),
      app_icon: Type.String(),
      scopes: Type.Array(Type.String()),
      /** The same scopes, described as the consent page described them. */
      scope_info: Type.Array(OpenScopeInfo),
      authorized_at: Type.Number(),
    }),
  ),
});

export const authorizedAppsSchema = {
  summary: 'Open authorization: the apps the signed-in person has authorised',
  tags: ['open-auth'],
  querystring: CommonQuery,
};

export const updateAuthorizeInfoSchema = {
  summary: 'Open authorization: revokes an app the signed-in person authorised (its tokens die at once)',
  tags: ['open-auth'],
  consumes: FORM,
  querystring: CommonQuery,
  body: Type.Object(
    { client_key: ClientKey, action: Type.Optional(Type.Literal('revoke')) },
    { additionalProperties: true },
  ),
};

/** sms/authorize: sign in by an SMS code of purpose 26 (or 27) on the consent page. */
export const smsAuthorizeSchema = {
  summary:
    'Sign in by SMS code (purpose 26, SMS authorise) inside the authorization page; registers a new number',
  tags: ['open-auth'],
  consumes: FORM,
  querystring: CommonQuery,
  body: SmsLoginBody,
};

/** The shapes `auth/token` answers in (`response_format_type`; the spec's default is 'app'). */
export const AUTH_TOKEN_FORMATS = ['app', 'oidc'] as const;

export const AuthTokenBody = Type.Object(
  {
    /** An access token the provider issued (the token endpoint's `access_token`); never in the URL. */
    token: Type.String({ minLength: 1, maxLength: 2048 }),
    /**
     * The app asking (its client id): a token the provider issued to another app is refused, so an app
     * that collects its users' tokens cannot sign them in at another app's back end with them.
     */
    client_key: Type.String({ minLength: 1, maxLength: 256 }),
    /** Echoed as it came, so one handler can match the answer to its request. */
    state: Type.Optional(Type.String({ maxLength: 512 })),
    response_format_type: Type.Optional(Type.Union(AUTH_TOKEN_FORMATS.map((format) => Type.Literal(format)))),
  },
  { additionalProperties: true },
);

const Claims = {
  additionalProperties: true,
  description: 'the claims of the scopes granted, as userinfo answers them',
};

/** 'app': the authorization in the spec's words, the person's claims under `user`. */
export const AuthTokenApp = Type.Object({
  /** The person, as the app knows them (the ID token's and userinfo's `sub`). */
  open_id: Type.String(),
  client_key: Type.String(),
  app_name: Type.String(),
  /** The scopes the person granted (openid and offline_access left out). */
  scope: Type.Array(Type.String()),
  /** Seconds the access token has left. */
  expires_in: Type.Integer({ minimum: 0 }),
  user: Type.Object({}, Claims),
  state: Type.Optional(Type.String()),
});

/** 'oidc': userinfo's claims as they are, with RFC 7662's names for the token (`client_id`, `scope`, `exp`). */
export const AuthTokenOidc = Type.Object(
  {
    sub: Type.String(),
    client_id: Type.String(),
    scope: Type.String(),
    exp: Type.Integer(),
    state: Type.Optional(Type.String()),
  },
  Claims,
);

export const AuthTokenResult = Type.Union([AuthTokenApp, AuthTokenOidc]);

export const authTokenSchema = {
  summary:
    'Open authorization: the authorization an access token carries (the person, the app, the scopes granted, the claims); the token in the body only, state echoed, response_format_type app (default) or oidc',
  tags: ['open-auth'],
  consumes: FORM,
  querystring: CommonQuery,
  body: AuthTokenBody,
};
