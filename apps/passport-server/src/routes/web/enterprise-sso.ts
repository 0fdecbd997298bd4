import { Type } from 'typebox';
import { connectionOf } from '../../domain/enterprise/connections';
import { samlSpMetadata, samlSpOf } from '../../domain/enterprise/saml';
import { PassportError } from '../../errors';
import {
  finishEnterpriseSignIn,
  receiveSamlResponse,
  startEnterpriseSignIn,
} from '../../flows/enterprise-sign-in';
import { enterpriseSsoPaths } from '../../protocol';
import { SsoSignedIn, SsoStarted, schema } from '../../schemas/enterprise-sso';
import { flowRoute } from '../declare';

/**
 * Signing in through an organisation's connection (flows/enterprise-sign-in, docs/enterprise-sso.md):
 * the work e-mail's start, then the callback page's exchange, which ends in the sign-in operation.
 */

export const ssoStartRoute = flowRoute({
  method: 'POST',
  schema: schema.start,
  data: SsoStarted,
  at: [['passport', enterpriseSsoPaths.start]],
  run: (app, request, reply) => startEnterpriseSignIn(app, request, reply, request.body),
});

export const ssoLoginRoute = flowRoute({
  method: 'POST',
  schema: schema.login,
  data: SsoSignedIn,
  at: [['passport', enterpriseSsoPaths.login]],
  run: (app, request, reply) => finishEnterpriseSignIn(app, request, reply, request.body),
});

export const samlAcsRoute = flowRoute({
  method: 'POST',
  schema: schema.samlAcs,
  data: Type.Object({}),
  responses: { 303: Type.Null({ description: 'to the callback page, which finishes the sign-in' }) },
  at: [['passport', enterpriseSsoPaths.samlAcs]],
  // The identity provider's page posts here from its own site: no session, no token, nothing read or
  // signed in; the response is only kept for the callback page's call, which is bound to the browser.
  config: { csrf: false },
  // A provider's response with many group attributes and its certificate passes 64 KiB; its schema
  // bounds it (400,000 characters of base64).
  bodyLimit: 512 * 1024,
  run: (app, request, reply) => receiveSamlResponse(app, request, reply, request.body),
});

export const samlMetadataRoute = flowRoute({
  method: 'GET',
  schema: schema.samlMetadata,
  data: Type.Object({}),
  at: [['passport', enterpriseSsoPaths.samlMetadata]],
  async run(app, request, reply) {
    const connection = await connectionOf(app.db, request.query.subject_uid);
    if (connection?.protocol !== 'saml') throw new PassportError('connectionNotFound');
    const xml = samlSpMetadata(connection, samlSpOf(app.config.publicOrigin, connection.subject_id));
    await reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
    return undefined;
  },
});

export const ENTERPRISE_SSO_ROUTES = [ssoStartRoute, ssoLoginRoute, samlAcsRoute, samlMetadataRoute] as const;
