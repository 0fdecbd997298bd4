import { Type } from 'typebox';
import { AccountInfo } from './account';
import { CommonQuery, FORM } from './common';

/** Signing in through an organisation's connection (docs/enterprise-sso.md): the web family's two calls. */

export const SsoStartBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320, description: 'the work e-mail address' }),
    next: Type.Optional(Type.String({ maxLength: 2048, description: 'where to go once signed in' })),
  },
  { additionalProperties: true },
);
export const SsoStarted = Type.Object({
  authorize_url: Type.String({ description: 'send the browser here: the organisation’s identity provider' }),
});

export const SsoLoginBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 2048 }),
    state: Type.String({ minLength: 1, maxLength: 128 }),
    /** RFC 9207: the issuer the callback named, passed through to the check. */
    iss: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: true },
);
export const SsoSignedIn = Type.Intersect([
  AccountInfo,
  Type.Object({ next: Type.String({ description: 'where the sign-in started to go' }) }),
]);

const post = <B extends typeof SsoStartBody | typeof SsoLoginBody>(summary: string, body: B) => ({
  summary,
  tags: ['enterprise-sso'],
  consumes: FORM,
  querystring: CommonQuery,
  body,
});

export const schema = {
  start: post(
    'Single sign-on with a work e-mail: the provider of the organisation that verified its domain',
    SsoStartBody,
  ),
  login: post(
    'Single sign-on callback: exchanges the code, verifies the ID token, signs in to the organisation',
    SsoLoginBody,
  ),
};
