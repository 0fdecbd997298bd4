import { API_SCOPES } from '@portico/management/protocol';
import { Type } from 'typebox';
import { newApiKey, publicKey } from '../../domain/api-keys/api-keys';
import { PassportError } from '../../errors';
import { type CallerOf, caller, defineOperation, type OperationContext } from '../define';

/**
 * API keys of the management API, managed by an operator (a user id in OPERATOR_USER_IDS) from a
 * signed-in session. Creating or rotating a key hands out a credential that acts without a person: it
 * needs a fresh step-up, like every new way in.
 */

/** Seconds since the operator last verified, past which a new key needs a step-up. */
export const KEY_STEP_UP_SECONDS = 10 * 60;
export const DAY_MS = 86_400_000;

/** A person acting: an operator, or an organisation's manager through their identity. */
type OperatorContext = OperationContext<
  CallerOf<{ kind: 'person' }> | CallerOf<{ kind: 'identity'; permission: null }>
>;

export const KeyId = Type.String({ minLength: 1, maxLength: 64 });
// `scim` provisions one organisation's members: only an organisation's key holds it (docs/scim.md).
const ONE_SCOPE = `(${API_SCOPES.filter((scope) => scope !== 'scim').join('|')})`;
const SCOPE_LIST = `^${ONE_SCOPE}( ${ONE_SCOPE})*$`;
export const ApiKeyInfo = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  created_at: Type.Number(),
  expires_at: Type.Union([Type.Number(), Type.Null()]),
  last_used_at: Type.Union([Type.Number(), Type.Null()]),
  revoked_at: Type.Union([Type.Number(), Type.Null()]),
});
/** A new key: shown in this answer once, never again. */
export const CreatedKey = Type.Object({ ...ApiKeyInfo.properties, key: Type.String() });

export const emitKey = (
  ctx: OperatorContext,
  keyId: string,
  event:
    | { type: 'operator.api_key_created'; data: { name: string; prefix: string; scopes: string[] } }
    | { type: 'operator.api_key_revoked'; data: { prefix: string } }
    | { type: 'operator.api_key_rotated'; data: { prefix: string; replacedBy: string; expiresAt: number } },
) =>
  ctx.emit({ ...event, stream: `api_key:${keyId}`, actor: { kind: 'person', userId: ctx.caller.user.id } });

/** Inserts a key and emits its creation; an organisation's key names its organisation (`subjectId`). */
export async function insertKey(
  ctx: OperatorContext,
  fields: { name: string; scopes: string[]; expiresAt: number | null; subjectId?: string },
) {
  const { key, prefix, secretHash } = newApiKey(ctx.secret);
  const row = {
    id: ctx.newId(),
    name: fields.name,
    prefix,
    secret_hash: secretHash,
    scopes: JSON.stringify(fields.scopes),
    created_by: ctx.caller.user.id,
    created_at: ctx.now(),
    expires_at: fields.expiresAt,
    last_used_at: null,
    revoked_at: null,
    subject_id: fields.subjectId ?? null,
  };
  await ctx.tx.insertInto('api_keys').values(row).execute();
  emitKey(ctx, row.id, {
    type: 'operator.api_key_created',
    data: { name: row.name, prefix, scopes: fields.scopes },
  });
  return { ...publicKey(row), key };
}

export const createApiKey = defineOperation({
  name: 'operator.api_key.create',
  input: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 80 }),
    /** Space-separated, as OAuth writes scopes (a form field): `users:read users:write`. */
    scopes: Type.String({ pattern: SCOPE_LIST, maxLength: 200 }),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
  }),
  output: CreatedKey,
  caller: caller.operator,
  stepUp: KEY_STEP_UP_SECONDS,
  emits: ['operator.api_key_created'],
  async run(ctx, input) {
    const expiresAt = input.expires_in_days ? ctx.now() + input.expires_in_days * DAY_MS : null;
    const scopes = [...new Set(input.scopes.split(' '))];
    return insertKey(ctx, { name: input.name, scopes, expiresAt });
  },
});

export const listApiKeys = defineOperation({
  name: 'operator.api_key.list',
  input: Type.Object({}),
  output: Type.Object({ keys: Type.Array(ApiKeyInfo) }),
  caller: caller.operator,
  emits: [],
  async run(ctx) {
    const rows = await ctx.tx
      .selectFrom('api_keys')
      .selectAll()
      .where('subject_id', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    return { keys: rows.map(publicKey) };
  },
});

async function liveKey(ctx: OperatorContext, id: string) {
  const row = await ctx.tx.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  // A revoked or expired key is over: rotating it would hand out a key that is already dead.
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= ctx.now()))
    throw new PassportError('notFound');
  return row;
}

export const revokeApiKey = defineOperation({
  name: 'operator.api_key.revoke',
  input: Type.Object({ id: KeyId }),
  output: ApiKeyInfo,
  caller: caller.operator,
  emits: ['operator.api_key_revoked'],
  async run(ctx, input) {
    const row = await liveKey(ctx, input.id);
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

export const rotateApiKey = defineOperation({
  name: 'operator.api_key.rotate',
  input: Type.Object({
    id: KeyId,
    /** How long the old key keeps working, so back ends can switch without downtime. Default 24. */
    overlap_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 720 })),
  }),
  output: CreatedKey,
  caller: caller.operator,
  stepUp: KEY_STEP_UP_SECONDS,
  emits: ['operator.api_key_created', 'operator.api_key_rotated'],
  async run(ctx, input) {
    const old = await liveKey(ctx, input.id);
    const overlapEnds = ctx.now() + (input.overlap_hours ?? 24) * 3_600_000;
    const expiresAt = old.expires_at === null ? overlapEnds : Math.min(old.expires_at, overlapEnds);
    const created = await insertKey(ctx, {
      name: old.name,
      scopes: JSON.parse(old.scopes) as string[],
      expiresAt: old.expires_at,
    });
    await ctx.tx.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', old.id).execute();
    emitKey(ctx, old.id, {
      type: 'operator.api_key_rotated',
      data: { prefix: old.prefix, replacedBy: created.id, expiresAt },
    });
    return created;
  },
});
