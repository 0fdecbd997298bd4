import { Type } from 'typebox';
import { AccountInfo } from './account';
import { CommonQuery, MixMode, webResponses } from './common';
import { PasswordLoginBody } from './login';

export const CheckLoginData = Type.Object({
  is_login: Type.Boolean(),
  user_id: Type.Optional(Type.String({ description: 'the signed-in user, only when is_login' })),
});

export const checkLoginSchema = {
  summary: 'Whether the request carries a valid session (never an error when it does not)',
  tags: ['app'],
  querystring: CommonQuery,
  response: webResponses(CheckLoginData),
};

/** /Logout takes no fields of its own; the SDK may add its common ones. No body at all is fine too. */
export const AppLogoutBody = Type.Object({ mix_mode: MixMode }, { additionalProperties: true });

export const appLogoutSchema = {
  summary: 'Sign out: kills the session (succeeds when there is none); no redirect',
  tags: ['app'],
  querystring: CommonQuery,
  body: AppLogoutBody,
  response: webResponses(Type.Object({})),
};

export const getUserInfoSchema = {
  summary: 'The signed-in account, as account/info answers it (NOT_LOGGED_IN without a session)',
  tags: ['app'],
  querystring: CommonQuery,
  response: webResponses(AccountInfo),
};

export const appLoginSchema = {
  summary: 'Sign in with a password: the web password login (same limits and answers) under its app name',
  tags: ['app'],
  querystring: CommonQuery,
  body: PasswordLoginBody,
  response: webResponses(AccountInfo),
};

export const GetUserTokenBody = Type.Object(
  {
    aud: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'one of USER_TOKEN_AUDIENCES; the first one when absent',
      }),
    ),
  },
  { additionalProperties: true },
);

export const UserTokenData = Type.Object({
  token: Type.String({ description: 'an ES256 JWT; verify it against /.well-known/jwks.json' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds' }),
  expires_at: Type.Integer({ description: 'ms since the epoch' }),
});

export const getUserTokenSchema = {
  summary:
    'A short-lived JWT naming the signed-in user, for product back ends (NOT_LOGGED_IN without a session)',
  tags: ['app'],
  querystring: CommonQuery,
  body: GetUserTokenBody,
  response: webResponses(UserTokenData),
};

const PublicJwk = Type.Object(
  {
    kty: Type.String(),
    kid: Type.String(),
    alg: Type.String(),
    use: Type.Literal('sig'),
    crv: Type.Optional(Type.String()),
    x: Type.Optional(Type.String()),
    y: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const jwksSchema = {
  summary: 'The public keys user tokens are signed with (RFC 7517 JWK Set; not an envelope)',
  tags: ['app'],
  response: { 200: Type.Object({ keys: Type.Array(PublicJwk) }) },
};
