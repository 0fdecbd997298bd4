import {
  CreateWebhookBody,
  ListDeliveriesQuery,
  RotateWebhookSecretBody,
  UpdateWebhookBody,
  WebhookDeleted,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from '@portico/management/protocol';
import type { Selectable } from 'kysely';
import { type TObject, type TSchema, Type } from 'typebox';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema';
import { newSigningSecret, secretSealer } from '../../domain/webhooks/secrets';
import { checkTarget, TargetRefused } from '../../domain/webhooks/targets';
import { PassportError } from '../../errors';
import { EVENTS, type EventActor, type EventType } from '../../events/catalogue';
import {
  type Caller,
  type CallerSpec,
  caller,
  defineOperation,
  type Operation,
  type OperationContext,
} from '../define';

/**
 * Webhook endpoints (docs/webhooks.md), one set of capabilities declared once and offered to three
 * callers: an operator in the web app (the deployment's endpoints; a fresh step-up to create one or
 * rotate its secret, which hand out a secret), a back end's API key with `webhooks:write` (the
 * deployment's endpoints; an organisation's key, that organisation's), and an organisation's manager (that organisation's endpoints, which receive
 * only its events). `webhookOperations(callerKind)` declares them for one caller.
 */

type EndpointRow = Selectable<WebhookEndpointsTable>;
type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Seconds since the operator last verified, past which a new endpoint or secret needs a step-up. */
const STEP_UP_SECONDS = 10 * 60;
const HOUR_MS = 3_600_000;

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const SubjectId = Type.String({ minLength: 1, maxLength: 64 });

/** Who acts, on whose endpoints. */
/** The most endpoints the deployment, or one organisation, may register. */
export const ENDPOINTS_PER_OWNER = 20;

interface Owner {
  /** Null: the deployment's endpoints. */
  subjectId: string | null;
  actor: EventActor;
  createdBy: string;
}

export type WebhookCallerKind = 'operator' | 'apiKey' | 'manager';

function ownerOf(kind: WebhookCallerKind, ctx: OperationContext): Owner {
  const c = ctx.caller as Caller;
  if (kind === 'operator' && c.kind === 'person')
    return { subjectId: null, actor: { kind: 'person', userId: c.user.id }, createdBy: c.user.id };
  // A deployment's key: the deployment's endpoints; an organisation's key: that organisation's only.
  if (kind === 'apiKey' && c.kind === 'apiKey')
    return {
      subjectId: c.subjectId,
      actor: { kind: 'apiKey', keyId: c.keyId },
      createdBy: `api_key:${c.keyId}`,
    };
  if (kind === 'manager' && c.kind === 'identity') {
    // The organisation's manager only: an endpoint reads every event of the organisation.
    if (!c.isManager) throw new PassportError('permissionDenied');
    return {
      subjectId: c.subject.id,
      actor: { kind: 'identity', userId: c.user.id, subjectId: c.subject.id, deputyId: c.deputy.id },
      createdBy: c.user.id,
    };
  }
  throw new Error(`a ${kind} webhook operation reached by a ${c.kind} caller`);
}

const refused = (error: unknown): never => {
  if (error instanceof TargetRefused)
    // The reason only: the detail (and the address a name resolves to) goes to the log, as the cause.
    throw new PassportError('invalidParam', { field: 'url', reason: error.reason }, { cause: error });
  throw error;
};

/** The event types of a filter, each known (or a prefix of known ones). */
function eventTypes(list: string | undefined): string[] {
  const types = [...new Set((list ?? '').split(' ').filter(Boolean))];
  for (const type of types) {
    const known = type.endsWith('.') ? [...EVENTS.keys()].some((t) => t.startsWith(type)) : EVENTS.has(type);
    if (!known)
      throw new PassportError('invalidParam', { field: 'event_types', reason: 'unknown_type', type });
  }
  return types;
}

export const endpointInfo = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  event_types: JSON.parse(row.event_types) as string[],
  organisation_id: row.subject_id,
  enabled: row.enabled === 1,
  disabled_reason: row.enabled === 1 ? null : row.disabled_reason === 'failing' ? 'failing' : 'manual',
  failing_since: row.failing_since === null ? null : Number(row.failing_since),
  previous_secret_until: row.previous_secret_until === null ? null : Number(row.previous_secret_until),
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
});

async function ownEndpoint(ctx: OperationContext, owner: Owner, id: string): Promise<EndpointRow> {
  let query = ctx.tx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id);
  query =
    owner.subjectId === null
      ? query.where('subject_id', 'is', null)
      : query.where('subject_id', '=', owner.subjectId);
  const row = await query.executeTakeFirst();
  if (!row) throw new PassportError('notFound');
  return row;
}

function emit(
  ctx: OperationContext,
  owner: Owner,
  endpointId: string,
  event:
    | { type: 'webhook.endpoint_created'; data: { host: string; eventTypes: string[] } }
    | { type: 'webhook.endpoint_updated'; data: { host: string; eventTypes: string[]; enabled: boolean } }
    | { type: 'webhook.endpoint_deleted'; data: { host: string } }
    | { type: 'webhook.secret_rotated'; data: { host: string; previousUntil: number } },
) {
  ctx.emit({ ...event, stream: `webhook:${endpointId}`, actor: owner.actor, subjectId: owner.subjectId });
}

const hostOf = (url: string) => new URL(url).host;

async function deliveryInfo(ctx: OperationContext, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await ctx.tx
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', 'in', ids)
        .orderBy('at', 'desc')
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    stream: row.stream,
    status: row.status as WebhookDelivery['status'],
    attempts: Number(row.attempts),
    next_attempt_at: row.status === 'pending' ? Number(row.next_attempt_at) : null,
    last_status: row.last_status,
    last_latency_ms: row.last_latency_ms,
    last_response: row.last_response,
    last_error: row.last_error,
    created_at: Number(row.created_at),
    delivered_at: row.delivered_at === null ? null : Number(row.delivered_at),
    history: attempts
      .filter((a) => a.delivery_id === row.id)
      .slice(0, 10)
      .map((a) => ({
        at: Number(a.at),
        status: a.status,
        latency_ms: a.latency_ms,
        response: a.response,
        error: a.error,
      })),
  }));
}

/** The capabilities, each as its caller-free input, output, events and run. */
const capabilities = {
  create: {
    input: CreateWebhookBody,
    output: WebhookEndpointWithSecret,
    stepUp: true,
    emits: ['webhook.endpoint_created'],
    async run(ctx: OperationContext, owner: Owner, input: CreateWebhookBody) {
      // Each endpoint gets its own delivery of every event it takes, and the deliveries share the
      // worker's lanes: an organisation with hundreds of endpoints that never answer would hold back
      // everyone else's.
      const { count } = await ctx.tx
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('subject_id', owner.subjectId === null ? 'is' : '=', owner.subjectId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= ENDPOINTS_PER_OWNER)
        throw new PassportError('invalidParam', { field: 'url', reason: 'too_many_endpoints' });
      await checkTarget(input.url, ctx.config.webhooks.privateTargets).catch(refused);
      const types = eventTypes(input.event_types);
      const secret = newSigningSecret();
      const now = ctx.now();
      const row: EndpointRow = {
        id: ctx.newId(),
        subject_id: owner.subjectId,
        url: input.url,
        description: input.description ?? '',
        event_types: JSON.stringify(types),
        secret: secretSealer(ctx.secret).seal(secret),
        previous_secret: null,
        previous_secret_until: null,
        enabled: 1,
        disabled_reason: null,
        failing_since: null,
        created_by: owner.createdBy,
        created_at: now,
        updated_at: now,
      };
      await ctx.tx.insertInto('webhook_endpoints').values(row).execute();
      emit(ctx, owner, row.id, {
        type: 'webhook.endpoint_created',
        data: { host: hostOf(row.url), eventTypes: types },
      });
      return { ...endpointInfo(row), secret };
    },
  },
  list: {
    input: Type.Object({}),
    output: WebhookEndpointList,
    emits: [],
    async run(ctx: OperationContext, owner: Owner) {
      let query = ctx.tx.selectFrom('webhook_endpoints').selectAll();
      query =
        owner.subjectId === null
          ? query.where('subject_id', 'is', null)
          : query.where('subject_id', '=', owner.subjectId);
      const rows = await query.orderBy('created_at', 'desc').orderBy('id').execute();
      return { endpoints: rows.map(endpointInfo) };
    },
  },
  get: {
    input: Type.Object({ id: Id }),
    output: WebhookEndpoint,
    emits: [],
    run: async (ctx: OperationContext, owner: Owner, input: { id: string }) =>
      endpointInfo(await ownEndpoint(ctx, owner, input.id)),
  },
  update: {
    input: Type.Object({ id: Id, ...UpdateWebhookBody.properties }),
    output: WebhookEndpoint,
    emits: ['webhook.endpoint_updated'],
    async run(ctx: OperationContext, owner: Owner, input: { id: string } & UpdateWebhookBody) {
      const row = await ownEndpoint(ctx, owner, input.id);
      if (input.url !== undefined)
        await checkTarget(input.url, ctx.config.webhooks.privateTargets).catch(refused);
      const next: EndpointRow = {
        ...row,
        url: input.url ?? row.url,
        description: input.description ?? row.description,
        event_types:
          input.event_types === undefined ? row.event_types : JSON.stringify(eventTypes(input.event_types)),
        updated_at: ctx.now(),
      };
      await ctx.tx
        .updateTable('webhook_endpoints')
        .set({
          url: next.url,
          description: next.description,
          event_types: next.event_types,
          updated_at: next.updated_at,
        })
        .where('id', '=', row.id)
        .execute();
      emit(ctx, owner, row.id, {
        type: 'webhook.endpoint_updated',
        data: {
          host: hostOf(next.url),
          eventTypes: JSON.parse(next.event_types),
          enabled: next.enabled === 1,
        },
      });
      return endpointInfo(next);
    },
  },
  disable: {
    input: Type.Object({ id: Id }),
    output: WebhookEndpoint,
    emits: ['webhook.endpoint_updated'],
    run: (ctx: OperationContext, owner: Owner, input: { id: string }) =>
      setEnabled(ctx, owner, input.id, false),
  },
  enable: {
    input: Type.Object({ id: Id }),
    output: WebhookEndpoint,
    emits: ['webhook.endpoint_updated'],
    run: (ctx: OperationContext, owner: Owner, input: { id: string }) =>
      setEnabled(ctx, owner, input.id, true),
  },
  delete: {
    input: Type.Object({ id: Id }),
    output: WebhookDeleted,
    emits: ['webhook.endpoint_deleted'],
    async run(ctx: OperationContext, owner: Owner, input: { id: string }) {
      const row = await ownEndpoint(ctx, owner, input.id);
      const deliveries = ctx.tx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', row.id);
      await ctx.tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
      await ctx.tx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', row.id).execute();
      await ctx.tx.deleteFrom('webhook_endpoints').where('id', '=', row.id).execute();
      emit(ctx, owner, row.id, { type: 'webhook.endpoint_deleted', data: { host: hostOf(row.url) } });
      return { id: row.id, deleted: true as const };
    },
  },
  rotate_secret: {
    input: Type.Object({ id: Id, ...RotateWebhookSecretBody.properties }),
    output: WebhookEndpointWithSecret,
    stepUp: true,
    emits: ['webhook.secret_rotated'],
    async run(ctx: OperationContext, owner: Owner, input: { id: string; overlap_hours?: number }) {
      const row = await ownEndpoint(ctx, owner, input.id);
      const secret = newSigningSecret();
      const now = ctx.now();
      const until = now + (input.overlap_hours ?? 24) * HOUR_MS;
      const next: EndpointRow = {
        ...row,
        secret: secretSealer(ctx.secret).seal(secret),
        previous_secret: row.secret,
        previous_secret_until: until,
        updated_at: now,
      };
      await ctx.tx
        .updateTable('webhook_endpoints')
        .set({
          secret: next.secret,
          previous_secret: next.previous_secret,
          previous_secret_until: until,
          updated_at: now,
        })
        .where('id', '=', row.id)
        .execute();
      emit(ctx, owner, row.id, {
        type: 'webhook.secret_rotated',
        data: { host: hostOf(row.url), previousUntil: until },
      });
      return { ...endpointInfo(next), secret };
    },
  },
  deliveries: {
    input: Type.Object({ id: Id, ...ListDeliveriesQuery.properties }),
    output: WebhookDeliveryPage,
    emits: [],
    async run(ctx: OperationContext, owner: Owner, input: { id: string } & ListDeliveriesQuery) {
      const row = await ownEndpoint(ctx, owner, input.id);
      const limit = input.limit ?? 20;
      let query = ctx.tx.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', row.id);
      if (input.status) query = query.where('status', '=', input.status);
      if (input.cursor) query = query.where('event_position', '<', Number(input.cursor));
      const rows = await query
        .orderBy('event_position', 'desc')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      return {
        deliveries: await deliveryInfo(ctx, page),
        next_cursor: rows.length > limit ? String(page.at(-1)?.event_position) : null,
      };
    },
  },
  redeliver: {
    input: Type.Object({ id: Id, delivery_id: Id }),
    output: WebhookDelivery,
    emits: [],
    async run(ctx: OperationContext, owner: Owner, input: { id: string; delivery_id: string }) {
      const endpoint = await ownEndpoint(ctx, owner, input.id);
      // A disabled endpoint sends nothing: enable it first (its pending deliveries then go too).
      if (endpoint.enabled !== 1)
        throw new PassportError('invalidParam', { field: 'id', reason: 'endpoint_disabled' });
      const row = await ctx.tx
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', input.delivery_id)
        .where('endpoint_id', '=', endpoint.id)
        .executeTakeFirst();
      if (!row) throw new PassportError('notFound');
      // Being sent right now (a server holds its lease): the attempt's outcome would overwrite the
      // fresh window asked for here, so the caller asks again once it is recorded. Leases run on the
      // wall clock, as the worker's do.
      if (row.lease_until !== null && Number(row.lease_until) >= Date.now())
        throw new PassportError('invalidParam', { field: 'delivery_id', reason: 'delivery_in_flight' });
      const now = ctx.now();
      // Queued again with a fresh retry window.
      const queued = { ...row, status: 'pending', attempts: 0, next_attempt_at: now, created_at: now };
      await ctx.tx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, created_at: now })
        .where('id', '=', row.id)
        .execute();
      const [info] = await deliveryInfo(ctx, [queued]);
      return info!;
    },
  },
} as const;

async function setEnabled(ctx: OperationContext, owner: Owner, id: string, enabled: boolean) {
  const row = await ownEndpoint(ctx, owner, id);
  const now = ctx.now();
  const next: EndpointRow = {
    ...row,
    enabled: enabled ? 1 : 0,
    disabled_reason: enabled ? null : 'manual',
    failing_since: enabled ? null : row.failing_since,
    updated_at: now,
  };
  await ctx.tx
    .updateTable('webhook_endpoints')
    .set({
      enabled: next.enabled,
      disabled_reason: next.disabled_reason,
      failing_since: next.failing_since,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  // Enabled again: what waited is sent from now, with a fresh retry window.
  if (enabled && row.enabled !== 1)
    await ctx.tx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now, created_at: now })
      .where('endpoint_id', '=', row.id)
      .where('status', '=', 'pending')
      .execute();
  emit(ctx, owner, row.id, {
    type: 'webhook.endpoint_updated',
    data: { host: hostOf(row.url), eventTypes: JSON.parse(row.event_types) as string[], enabled },
  });
  return endpointInfo(next);
}

export type WebhookCapability = keyof typeof capabilities;

const callerSpecs: Record<WebhookCallerKind, CallerSpec> = {
  operator: caller.operator,
  apiKey: caller.apiKey('webhooks:write', { organisation: true }),
  manager: caller.identity(null),
};

const prefixes: Record<WebhookCallerKind, string> = {
  operator: 'operator.webhook',
  apiKey: 'management.webhook',
  manager: 'organisation.webhook',
};

/**
 * The webhook capabilities for one caller: an organisation's manager names the organisation in the
 * input (`subject_uid`); a person (operator or manager) steps up to create an endpoint or rotate its
 * secret, which hands out the secret.
 */
export function webhookOperations(kind: WebhookCallerKind): Record<WebhookCapability, Operation> {
  const out = {} as Record<WebhookCapability, Operation>;
  for (const [name, capability] of Object.entries(capabilities) as [
    WebhookCapability,
    (typeof capabilities)[WebhookCapability],
  ][]) {
    const base = capability.input as TObject;
    const input: TSchema =
      kind === 'manager' ? Type.Object({ subject_uid: SubjectId, ...base.properties }) : base;
    const stepUp = 'stepUp' in capability && kind !== 'apiKey' ? { stepUp: STEP_UP_SECONDS } : {};
    out[name] = defineOperation({
      name: `${prefixes[kind]}.${name}`,
      input,
      output: capability.output as TSchema,
      caller: callerSpecs[kind],
      ...stepUp,
      emits: capability.emits as readonly EventType[],
      ...(kind === 'manager' ? { subject: (i: unknown) => (i as { subject_uid: string }).subject_uid } : {}),
      run: (ctx: unknown, i: unknown) => {
        const { subject_uid: _subject, ...rest } = i as Record<string, unknown>;
        return (capability.run as (c: OperationContext, o: Owner, i: unknown) => Promise<unknown>)(
          ctx as OperationContext,
          ownerOf(kind, ctx as OperationContext),
          rest,
        ) as never;
      },
    } as unknown as Operation);
  }
  return out;
}

export const operatorWebhooks = webhookOperations('operator');
export const managementWebhooks = webhookOperations('apiKey');
export const organisationWebhooks = webhookOperations('manager');
