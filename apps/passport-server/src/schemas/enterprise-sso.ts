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
    /** OpenID Connect: the callback's code and state. */
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    state: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    /** RFC 9207: the issuer the callback named, passed through to the check. */
    iss: Type.Optional(Type.String({ maxLength: 512 })),
    /** SAML: the handle of the response the assertion consumer service kept (the callback's `saml`). */
    saml: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: true },
);
/** What the identity provider's page posts to the assertion consumer service (HTTP-POST binding). */
export const SamlAcsBody = Type.Object(
  {
    SAMLResponse: Type.String({ minLength: 1, maxLength: 400_000, description: 'base64 of the Response' }),
    RelayState: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: true },
);
export const SamlMetadataQuery = Type.Object(
  { subject_uid: Type.String({ minLength: 1, maxLength: 64 }) },
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
    'Single sign-on callback: exchanges the code (OIDC) or verifies the kept SAML response, signs in to the organisation',
    SsoLoginBody,
  ),
  samlAcs: {
    summary:
      'SAML assertion consumer service (HTTP-POST): keeps the response once and sends the browser to the callback page',
    tags: ['enterprise-sso'],
    consumes: FORM,
    querystring: CommonQuery,
    body: SamlAcsBody,
  },
  samlMetadata: {
    summary: 'Our SAML service provider metadata for an organisation with a SAML connection',
    tags: ['enterprise-sso'],
    querystring: SamlMetadataQuery,
  },
};
