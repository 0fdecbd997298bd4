/**
 * `@portico/management/protocol`: the management API's wire, once — the paths, the scopes an API key
 * may hold, and the TypeBox schemas of what each call takes and answers. The passport server validates
 * and documents with these schemas; the client takes its types from them (and ships none of them).
 */
import { type Static, Type } from 'typebox';

/** The management API's base path on the passport server. */
export const MANAGEMENT_BASE_PATH = '/api/v1';

/** What an API key may be allowed, one scope per resource and access. */
export const API_SCOPES = ['users:read', 'users:write', 'audit:read', 'webhooks:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** The recognisable start of every key (secret scanners can match it). */
export const API_KEY_PREFIX = 'portico_sk_';

export const ApiScopeSchema = Type.Union(
  API_SCOPES.map((scope) => Type.Literal(scope)),
  { description: 'users:read, users:write, audit:read or webhooks:write' },
);

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

/** A person's account, as the product's back end sees it (identifiers in full: the key is trusted). */
export const ManagedUser = Type.Object({
  id: Type.String(),
  mobile: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  /** True while an operator has frozen (banned) the account: it cannot sign in. */
  frozen: Type.Boolean(),
  has_password: Type.Boolean(),
  /** Ms since the epoch. */
  created_at: Type.Number(),
});
export type ManagedUser = Static<typeof ManagedUser>;

export const ListUsersQuery = Type.Object({
  /** Matches a mobile, an e-mail, a username (from their start) or an id (exactly). */
  query: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
  /** The `next_cursor` of the page before. */
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type ListUsersQuery = Static<typeof ListUsersQuery>;

export const UserPage = Type.Object({
  users: Type.Array(ManagedUser),
  /** Null on the last page. */
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type UserPage = Static<typeof UserPage>;

export const UserIdParams = Type.Object({ id: Id });
export type UserIdParams = Static<typeof UserIdParams>;

/** What a freeze or thaw answers: the account's state only (a write key reads no identifiers). */
export const UserState = Type.Object({ id: Type.String(), frozen: Type.Boolean() });
export type UserState = Static<typeof UserState>;

export const SessionsRevoked = Type.Object({ revoked: Type.Integer({ minimum: 0 }) });
export type SessionsRevoked = Static<typeof SessionsRevoked>;

/**
 * RFC 9457 problem details, with the passport's error code and name (`code`, `name`) beside the
 * standard members.
 */
export const Problem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.Integer(),
  name: Type.String(),
});
export type Problem = Static<typeof Problem>;

/** The management calls: method and path (under MANAGEMENT_BASE_PATH), and the scope each needs. */
export const MANAGEMENT_CALLS = {
  listUsers: { method: 'GET', path: '/users', scope: 'users:read' },
  getUser: { method: 'GET', path: '/users/:id', scope: 'users:read' },
  freezeUser: { method: 'POST', path: '/users/:id/freeze', scope: 'users:write' },
  unfreezeUser: { method: 'POST', path: '/users/:id/unfreeze', scope: 'users:write' },
  revokeUserSessions: { method: 'POST', path: '/users/:id/sessions/revoke', scope: 'users:write' },
} as const satisfies Record<string, { method: 'GET' | 'POST'; path: string; scope: ApiScope }>;

// Webhooks (docs/webhooks.md)

/**
 * Event types an endpoint receives, space-separated: a type (`account.frozen`) or every type under a
 * prefix ending in `.` (`organisation.`); empty: every type.
 */
const EventTypeList = Type.String({
  maxLength: 2000,
  pattern: '^([a-z_]+(\\.[a-z_]+)*\\.?( [a-z_]+(\\.[a-z_]+)*\\.?)*)?$',
  description: 'space-separated event types or prefixes ending in `.`; empty: every type',
});

/** A webhook endpoint, without its secret (shown once, at creation and rotation). */
export const WebhookEndpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String()),
  /** Null: the deployment's endpoint (every event); else the organisation whose events only it gets. */
  organisation_id: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  /** `manual`, or `failing` when every delivery failed for the whole retry window; null when enabled. */
  disabled_reason: Type.Union([Type.Literal('manual'), Type.Literal('failing'), Type.Null()]),
  /** Since when every delivery has failed (ms); null when the last one succeeded. */
  failing_since: Type.Union([Type.Number(), Type.Null()]),
  /** After a rotation: until when the previous secret also signs (ms). */
  previous_secret_until: Type.Union([Type.Number(), Type.Null()]),
  created_at: Type.Number(),
  updated_at: Type.Number(),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** A new endpoint or a rotated secret: `secret` (`whsec_…`) is in this answer only. */
export const WebhookEndpointWithSecret = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String(),
});
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = Type.Object({ endpoints: Type.Array(WebhookEndpoint) });
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const CreateWebhookBody = Type.Object({
  /** https (http and private addresses only with the development setting WEBHOOK_PRIVATE_TARGETS). */
  url: Type.String({ minLength: 1, maxLength: 2000 }),
  event_types: Type.Optional(EventTypeList),
  description: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
  event_types: Type.Optional(EventTypeList),
  description: Type.Optional(Type.String({ maxLength: 200 })),
});
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const RotateWebhookSecretBody = Type.Object({
  /** How long the old secret also signs, so receivers switch without refusing anything. Default 24. */
  overlap_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 720 })),
});
export type RotateWebhookSecretBody = Static<typeof RotateWebhookSecretBody>;

export const WebhookIdParams = Type.Object({ id: Id });
export const WebhookDeliveryParams = Type.Object({ id: Id, delivery_id: Id });

export const ListDeliveriesQuery = Type.Object({
  status: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  ),
  /** The `next_cursor` of the page before. */
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9]+$' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

/** One attempt to send a delivery. */
export const WebhookAttempt = Type.Object({
  at: Type.Number(),
  /** The receiver's HTTP status; null when there was none (refused, timed out). */
  status: Type.Union([Type.Integer(), Type.Null()]),
  latency_ms: Type.Integer(),
  /** The response body's first 1,000 characters. */
  response: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

/** One event for one endpoint: `event_id` is the `webhook-id` every attempt sends. */
export const WebhookDelivery = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  stream: Type.String(),
  /** `pending` (queued or retrying), `succeeded`, or `failed` (given up after the retry window). */
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Type.Number(), Type.Null()]),
  last_status: Type.Union([Type.Integer(), Type.Null()]),
  last_latency_ms: Type.Union([Type.Integer(), Type.Null()]),
  last_response: Type.Union([Type.String(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.Number(),
  delivered_at: Type.Union([Type.Number(), Type.Null()]),
  /** Its latest attempts, newest first (at most 10). */
  history: Type.Array(WebhookAttempt),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryPage = Type.Object({
  deliveries: Type.Array(WebhookDelivery),
  /** Null on the last page. */
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookDeliveryPage = Static<typeof WebhookDeliveryPage>;

export const WebhookDeleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
export type WebhookDeleted = Static<typeof WebhookDeleted>;

/** The webhook calls of the management API (scope `webhooks:write`, reads included). */
export const WEBHOOK_CALLS = {
  listWebhooks: { method: 'GET', path: '/webhooks' },
  createWebhook: { method: 'POST', path: '/webhooks' },
  getWebhook: { method: 'GET', path: '/webhooks/:id' },
  updateWebhook: { method: 'POST', path: '/webhooks/:id' },
  disableWebhook: { method: 'POST', path: '/webhooks/:id/disable' },
  enableWebhook: { method: 'POST', path: '/webhooks/:id/enable' },
  deleteWebhook: { method: 'DELETE', path: '/webhooks/:id' },
  rotateWebhookSecret: { method: 'POST', path: '/webhooks/:id/rotate_secret' },
  listWebhookDeliveries: { method: 'GET', path: '/webhooks/:id/deliveries' },
  redeliverWebhook: { method: 'POST', path: '/webhooks/:id/deliveries/:delivery_id/redeliver' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'DELETE'; path: string }>;
