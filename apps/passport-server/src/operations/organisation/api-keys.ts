import { Type } from 'typebox';
import { publicKey } from '../../domain/api-keys/api-keys';
import { PassportError } from '../../errors';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';
import {
  ApiKeyInfo,
  CreatedKey,
  DAY_MS,
  emitKey,
  insertKey,
  KEY_STEP_UP_SECONDS,
  KeyId,
} from '../operator/api-keys';

/**
 * An organisation's management API keys (docs/management-api.md), made by its manager in the
 * organisation console: limited to that organisation (its members, roles, invitations and audit
 * events), never the deployment's accounts. Creating one needs a fresh step-up, like an operator's.
 */

type ManagerContext = OperationContext<CallerOf<{ kind: 'identity'; permission: null }>>;

/**
 * What an organisation's key may hold: its organisation's resources (its webhook endpoints, which
 * receive its events only), nothing deployment-wide; `scim` is its identity provider's provisioning
 * (docs/scim.md).
 */
export const ORGANISATION_SCOPES = [
  'organisations:read',
  'organisations:write',
  'audit:read',
  'webhooks:write',
  'scim',
] as const;
const ONE = `(${ORGANISATION_SCOPES.join('|')})`;

const subject = (input: { subject_uid: string }) => input.subject_uid;

function assertManager(ctx: ManagerContext) {
  if (!ctx.caller.isManager) throw new PassportError('permissionDenied');
}

export const createOrganisationKey = defineOperation({
  name: 'organisation.api_key.create',
  input: Type.Object({
    subject_uid: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: 80 }),
    /** Space-separated: `organisations:read audit:read webhooks:write`. */
    scopes: Type.String({ pattern: `^${ONE}( ${ONE})*$`, maxLength: 200 }),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  }),
  output: CreatedKey,
  caller: caller.identity(null),
  subject,
  stepUp: KEY_STEP_UP_SECONDS,
  emits: ['operator.api_key_created'],
  async run(ctx, input) {
    assertManager(ctx);
    const expiresAt = input.expires_in_days ? ctx.now() + input.expires_in_days * DAY_MS : null;
    const scopes = [...new Set(input.scopes.split(' '))];
    return insertKey(ctx, { name: input.name, scopes, expiresAt, subjectId: ctx.caller.subject.id });
  },
});

export const listOrganisationKeys = defineOperation({
  name: 'organisation.api_key.list',
  input: Type.Object({ subject_uid: Type.String({ minLength: 1, maxLength: 64 }) }),
  output: Type.Object({ keys: Type.Array(ApiKeyInfo) }),
  caller: caller.identity(null),
  subject,
  emits: [],
  async run(ctx) {
    assertManager(ctx);
    const rows = await ctx.tx
      .selectFrom('api_keys')
      .selectAll()
      .where('subject_id', '=', ctx.caller.subject.id)
      .orderBy('created_at', 'desc')
      .execute();
    return { keys: rows.map(publicKey) };
  },
});

export const revokeOrganisationKey = defineOperation({
  name: 'organisation.api_key.revoke',
  input: Type.Object({ subject_uid: Type.String({ minLength: 1, maxLength: 64 }), id: KeyId }),
  output: ApiKeyInfo,
  caller: caller.identity(null),
  subject,
  emits: ['operator.api_key_revoked'],
  async run(ctx, input) {
    assertManager(ctx);
    const row = await ctx.tx
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', input.id)
      .where('subject_id', '=', ctx.caller.subject.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new PassportError('notFound');
    const revoked = { ...row, revoked_at: ctx.now() };
    await ctx.tx
      .updateTable('api_keys')
      .set({ revoked_at: revoked.revoked_at })
      .where('id', '=', row.id)
      .execute();
    emitKey(ctx, row.id, { type: 'operator.api_key_revoked', data: { prefix: row.prefix } });
    return publicKey(revoked);
  },
});
