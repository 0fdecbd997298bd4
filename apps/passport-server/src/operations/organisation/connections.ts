import {
  type ConnectionRow,
  connectionOf,
  connectionSealer,
  deleteConnection,
  normaliseIssuer,
  saveConnection,
} from '../../domain/enterprise/connections';
import { PassportError } from '../../errors';
import { ConnectionData, ConnectionRemoved, schemas } from '../../schemas/enterprise';
import { caller, defineOperation } from '../define';
import { emitInSubject } from './emit';

/**
 * An organisation's OpenID Connect connection (docs/enterprise-sso.md): one per organisation, its
 * client secret sealed at rest and never answered. The route reads the issuer's discovery document
 * before the transaction; the operation keeps the issuer rule itself too.
 */

const subject = (input: { subject_uid: string }) => input.subject_uid;

const connectionView = (row: ConnectionRow) => ({
  protocol: 'oidc' as const,
  issuer: row.issuer,
  client_id: row.client_id,
  has_secret: row.client_secret !== '',
  updated_at: Number(row.updated_at),
});

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
    return connectionView(row);
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
    return connectionView(row);
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
    emitInSubject(ctx, 'organisation.sso_connection.removed', { protocol: 'oidc', issuer: row.issuer });
    return { removed: true };
  },
});
