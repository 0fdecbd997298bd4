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
