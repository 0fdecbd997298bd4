import { isLoopbackOrigin } from '../../config';
import {
  type ConnectionRow,
  connectionOf,
  connectionSealer,
  deleteConnection,
  normaliseIssuer,
  normaliseMetadataUrl,
  saveConnection,
} from '../../domain/enterprise/connections';
import { samlIdpOf, samlSpOf } from '../../domain/enterprise/saml';
import { type MetadataFetch, metadataKey } from '../../domain/enterprise/saml-metadata';
import { PassportError } from '../../errors';
import { ConnectionData, ConnectionRemoved, schemas } from '../../schemas/enterprise';
import { caller, defineOperation } from '../define';
import { emitInSubject } from './emit';

/**
 * An organisation's single sign-on connection (docs/enterprise-sso.md): one per organisation, OpenID
 * Connect or SAML 2.0. OIDC: the client secret sealed at rest and never answered; the route reads the
 * issuer's discovery document before the transaction; the operation keeps the issuer rule itself too.
 * SAML: the identity provider's entity id, single sign-on address and signing certificates, read from
 * its metadata (given, or read by the route from the address given, before the transaction).
 */

const subject = (input: { subject_uid: string }) => input.subject_uid;

const connectionView = (row: ConnectionRow, publicOrigin: string) => {
  if (row.protocol !== 'saml')
    return {
      protocol: 'oidc' as const,
      issuer: row.issuer,
      client_id: row.client_id,
      has_secret: row.client_secret !== '',
      updated_at: Number(row.updated_at),
    };
  const sp = samlSpOf(publicOrigin, row.subject_id);
  return {
    protocol: 'saml' as const,
    issuer: row.issuer,
    sso_url: row.saml_sso_url ?? '',
    certificates: (JSON.parse(row.saml_certificates ?? '[]') as string[]).length,
    sp_entity_id: sp.entityId,
    acs_url: sp.acsUrl,
    sp_metadata_url: sp.entityId,
    metadata_url: row.saml_metadata_url,
    updated_at: Number(row.updated_at),
  };
};

export const saveSsoConnection = defineOperation({
  name: 'organisation.sso_connection.save',
  input: schemas.connectionSave.body,
  output: ConnectionData,
  caller: caller.identity('sso:manage'),
  subject,
  emits: ['organisation.sso_connection.saved'],
  async run(ctx, input) {
    const subjectId = ctx.caller.subject.id;
    const issuer = normaliseIssuer(input.issuer, ctx.config.publicOrigin);
    const existing = await connectionOf(ctx.tx, subjectId);
    // The secret on file belongs to the stored issuer and client: a connection pointed elsewhere
    // brings its own, so nobody repoints the issuer and receives the old client's secret.
    const sameClient = existing?.issuer === issuer && existing.client_id === input.client_id;
    if (!sameClient && input.client_secret === undefined) throw new PassportError('connectionSecretRequired');
    const sealed =
      input.client_secret === undefined
        ? existing!.client_secret
        : connectionSealer(ctx.secret).seal(subjectId, input.client_secret);
    const now = ctx.now();
    const row: ConnectionRow = {
      subject_id: subjectId,
      protocol: 'oidc',
      issuer,
      client_id: input.client_id,
      client_secret: sealed,
      saml_sso_url: null,
      saml_certificates: null,
      saml_metadata_url: null,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    await saveConnection(ctx.tx, row, existing !== undefined);
    emitInSubject(ctx, 'organisation.sso_connection.saved', {
      protocol: 'oidc',
      issuer,
      clientId: input.client_id,
      secretChanged: input.client_secret !== undefined,
    });
    return connectionView(row, ctx.config.publicOrigin);
  },
});

export const saveSamlConnection = defineOperation({
  name: 'organisation.sso_connection.save_saml',
  input: schemas.samlConnectionSave.body,
  output: ConnectionData,
  caller: caller.identity('sso:manage'),
  subject,
  // The metadata the route read from the address, once (src/routes/aff/connections.ts).
  takes: (input) => (input.metadata_url ? [metadataKey(input.subject_uid, input.metadata_url)] : []),
  emits: ['organisation.sso_connection.saved'],
  async run(ctx, input) {
    const subjectId = ctx.caller.subject.id;
    const development = isLoopbackOrigin(ctx.config.publicOrigin);
    // An address wins over XML and fields given beside it: what it answered is the metadata.
    const metadataUrl = input.metadata_url
      ? normaliseMetadataUrl(input.metadata_url, ctx.config.publicOrigin).href
      : null;
    let given: Parameters<typeof samlIdpOf>[0] = input;
    if (input.metadata_url) {
      const taken = ctx.oneTime.take(metadataKey(input.subject_uid, input.metadata_url));
      const fetched: MetadataFetch = taken ? (JSON.parse(taken) as MetadataFetch) : { failed: 'fetch' };
      if ('failed' in fetched)
        throw new PassportError('connectionMetadataInvalid', { reason: fetched.failed });
      // An empty answer is no metadata, not "nothing given".
      if (!fetched.xml.trim()) throw new PassportError('connectionMetadataInvalid', { reason: 'xml' });
      given = { metadata_xml: fetched.xml };
    }
    const idp = samlIdpOf(given, development);
    const existing = await connectionOf(ctx.tx, subjectId);
    const now = ctx.now();
    const row: ConnectionRow = {
      subject_id: subjectId,
      protocol: 'saml',
      issuer: idp.entityId,
      client_id: '',
      client_secret: '',
      saml_sso_url: idp.ssoUrl,
      saml_certificates: JSON.stringify(idp.certificates),
      saml_metadata_url: metadataUrl,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    await saveConnection(ctx.tx, row, existing !== undefined);
    emitInSubject(ctx, 'organisation.sso_connection.saved', {
      protocol: 'saml',
      issuer: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificates: idp.certificates.length,
      ...(metadataUrl ? { metadataUrl } : {}),
    });
    return connectionView(row, ctx.config.publicOrigin);
  },
});

export const ssoConnectionInfo = defineOperation({
  name: 'organisation.sso_connection.info',
  input: schemas.connectionInfo.querystring,
  output: ConnectionData,
  caller: caller.identity('sso:manage'),
  subject,
  emits: [],
  async run(ctx) {
    const row = await connectionOf(ctx.tx, ctx.caller.subject.id);
    if (!row) throw new PassportError('connectionNotFound');
    return connectionView(row, ctx.config.publicOrigin);
  },
});

export const removeSsoConnection = defineOperation({
  name: 'organisation.sso_connection.remove',
  input: schemas.connectionRemove.body,
  output: ConnectionRemoved,
  caller: caller.identity('sso:manage'),
  subject,
  emits: ['organisation.sso_connection.removed'],
  async run(ctx) {
    const row = await connectionOf(ctx.tx, ctx.caller.subject.id);
    if (!row) throw new PassportError('connectionNotFound');
    await deleteConnection(ctx.tx, row.subject_id);
    emitInSubject(ctx, 'organisation.sso_connection.removed', {
      protocol: row.protocol === 'saml' ? 'saml' : 'oidc',
      issuer: row.issuer,
    });
    return { removed: true };
  },
});
