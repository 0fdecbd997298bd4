/**
 * `@portico/management/protocol`: the management API's wire, once — the paths, the scopes an API key
 * may hold, and the TypeBox schemas of what each call takes and answers. The passport server validates
 * and documents with these schemas; the client takes its types from them (and ships none of them).
 */
import { type Static, Type } from 'typebox';

/** The management API's base path on the passport server. */
export const MANAGEMENT_BASE_PATH = '/api/v1';

/** What an API key may be allowed, one scope per resource and access. */
export const API_SCOPES = [
  'users:read',
  'users:write',
  'organisations:read',
  'organisations:write',
  'apps:read',
  'apps:write',
  'audit:read',
  'webhooks:write',
  /** An organisation's SCIM 2.0 provisioning (`/scim/v2`): only an organisation's key holds it. */
  'scim',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** The recognisable start of every key (secret scanners can match it). */
export const API_KEY_PREFIX = 'portico_sk_';

export const ApiScopeSchema = Type.Union(
  API_SCOPES.map((scope) => Type.Literal(scope)),
  { description: API_SCOPES.join(', ') },
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

const Cursor = Type.Optional(Type.String({ minLength: 1, maxLength: 200 }));
const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 }));
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const PageQuery = Type.Object({ cursor: Cursor, limit: Limit });
export type PageQuery = Static<typeof PageQuery>;

export const ManagedOrganisation = Type.Object({
  id: Type.String(),
  name: Type.String(),
  frozen: Type.Boolean(),
  /** The manager's account id (null while none: a transfer in flight never leaves one without). */
  manager_user_id: Nullable(Type.String()),
  members: Type.Integer({ minimum: 0 }),
  created_at: Type.Number(),
});
export type ManagedOrganisation = Static<typeof ManagedOrganisation>;
export const OrganisationPage = Type.Object({
  organisations: Type.Array(ManagedOrganisation),
  next_cursor: Nullable(Type.String()),
});
export type OrganisationPage = Static<typeof OrganisationPage>;
export const OrganisationIdParams = Type.Object({ id: Id });
export type OrganisationIdParams = Static<typeof OrganisationIdParams>;

export const ManagedMember = Type.Object({
  /** The member identity's id in the organisation. */
  id: Type.String(),
  user_id: Type.String(),
  name: Type.String(),
  manager: Type.Boolean(),
  frozen: Type.Boolean(),
  /** The role keys it holds. */
  roles: Type.Array(Type.String()),
  created_at: Type.Number(),
});
export type ManagedMember = Static<typeof ManagedMember>;
export const MemberList = Type.Object({ members: Type.Array(ManagedMember) });
export type MemberList = Static<typeof MemberList>;

export const ManagedRole = Type.Object({
  key: Type.String(),
  name: Type.String(),
  permissions: Type.Array(Type.String()),
  description: Type.String(),
  banned: Type.Boolean(),
});
export type ManagedRole = Static<typeof ManagedRole>;
export const RoleList = Type.Object({ roles: Type.Array(ManagedRole) });
export type RoleList = Static<typeof RoleList>;

export const ManagedInvitation = Type.Object({
  id: Type.String(),
  channel: Type.String(),
  /** The mobile or e-mail it went to (null for a link). */
  contact: Nullable(Type.String()),
  name: Type.String(),
  roles: Type.Array(Type.String()),
  state: Type.Union([
    Type.Literal('pending'),
    Type.Literal('accepted'),
    Type.Literal('cancelled'),
    Type.Literal('expired'),
  ]),
  expires_at: Type.Number(),
  created_at: Type.Number(),
});
export type ManagedInvitation = Static<typeof ManagedInvitation>;
export const InvitationList = Type.Object({ invitations: Type.Array(ManagedInvitation) });
export type InvitationList = Static<typeof InvitationList>;
export const InvitationParams = Type.Object({ id: Id, invitation_id: Id });
export type InvitationParams = Static<typeof InvitationParams>;

export const AuditEventsQuery = Type.Object({
  /** An event type (`account.frozen`), or a prefix ending in a dot (`account.`). */
  type: Type.Optional(Type.String({ minLength: 1, maxLength: 80, pattern: '^[a-z_.]+$' })),
  /** The account that acted. */
  actor: Type.Optional(Id),
  /** The account it happened to. */
  user: Type.Optional(Id),
  /** The organisation it happened in. */
  organisation: Type.Optional(Id),
  /** From this time (inclusive), ms since the epoch. */
  since: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e13 })),
  /** Before this time (exclusive), ms since the epoch. */
  until: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e13 })),
  cursor: Cursor,
  limit: Limit,
});
export type AuditEventsQuery = Static<typeof AuditEventsQuery>;
export const AuditEvent = Type.Object({
  id: Type.String(),
  type: Type.String(),
  version: Type.Integer(),
  /** Who acted: `{ kind: 'person', userId }`, `{ kind: 'apiKey', keyId }`, `{ kind: 'system' }`, … */
  actor: Type.Record(Type.String(), Type.String()),
  organisation_id: Nullable(Type.String()),
  user_id: Nullable(Type.String()),
  data: Type.Record(Type.String(), Type.Unknown()),
  ip: Nullable(Type.String()),
  occurred_at: Type.Number(),
});
export type AuditEvent = Static<typeof AuditEvent>;
export const AuditEventPage = Type.Object({
  events: Type.Array(AuditEvent),
  next_cursor: Nullable(Type.String()),
});
export type AuditEventPage = Static<typeof AuditEventPage>;

/**
 * RFC 9457 problem details, with the passport's error code and name (`code`, `name`) beside the
 * standard members.
 */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.Integer(),
    name: Type.String(),
    /** Extension members naming what was refused: the input field, the reason, the scope missing. */
    field: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
  },
  // RFC 9457 §3.2: a refusal may carry more of its own (a deletion's `blockers`, say).
  { additionalProperties: true },
);
export type Problem = Static<typeof Problem>;

/** A new account: a mobile or an e-mail at least (a way in); each normalised as a sign-up would. */
export const CreateUserBody = Type.Object({
  mobile: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** The display name; a generated one (`user` and nine digits) when absent. */
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type CreateUserBody = Static<typeof CreateUserBody>;

/** The fields a back end may change; identifiers other than the username change by the person's own proof. */
export const UpdateUserBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  description: Type.Optional(Type.String({ maxLength: 400 })),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const DeleteUserQuery = Type.Object({
  /**
   * `cooling_off` (the default): the cancellation a person would make, erased after the server's
   * cooling-off period unless they sign in and abandon it; `now`: erased at once.
   */
  erase: Type.Optional(Type.Union([Type.Literal('cooling_off'), Type.Literal('now')])),
});
export type DeleteUserQuery = Static<typeof DeleteUserQuery>;

export const UserDeleted = Type.Object({
  id: Type.String(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('erased')]),
  /** Ms since the epoch: when a pending account is erased. */
  erase_at: Type.Union([Type.Number(), Type.Null()]),
});
export type UserDeleted = Static<typeof UserDeleted>;

export const ManagedSession = Type.Object({
  /** A short handle of the session (never its cookie). */
  id: Type.String(),
  created_at: Type.Number(),
  last_seen_at: Type.Number(),
  expires_at: Type.Number(),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
});
export type ManagedSession = Static<typeof ManagedSession>;
export const SessionList = Type.Object({ sessions: Type.Array(ManagedSession) });
export type SessionList = Static<typeof SessionList>;

export const LinkedAccount = Type.Object({
  provider: Type.String(),
  /** The provider's e-mail at link time, for display. */
  email: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  linked_at: Type.Number(),
  last_used_at: Type.Union([Type.Number(), Type.Null()]),
});
export type LinkedAccount = Static<typeof LinkedAccount>;
export const LinkedAccountList = Type.Object({ linked_accounts: Type.Array(LinkedAccount) });
export type LinkedAccountList = Static<typeof LinkedAccountList>;
export const LinkedAccountParams = Type.Object({
  id: Id,
  provider: Type.String({ pattern: '^[a-z]{1,32}$' }),
});
export type LinkedAccountParams = Static<typeof LinkedAccountParams>;

export const FACTOR_KINDS = ['totp', 'recovery_codes', 'passkeys'] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];
export const ResetFactorsBody = Type.Object({
  /** Which to remove; all three when absent. */
  factors: Type.Optional(
    Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('recovery_codes'), Type.Literal('passkeys')]), {
      minItems: 1,
      maxItems: 3,
    }),
  ),
});
export type ResetFactorsBody = Static<typeof ResetFactorsBody>;
export const FactorsReset = Type.Object({
  totp: Type.Boolean(),
  recovery_codes: Type.Integer({ minimum: 0 }),
  passkeys: Type.Integer({ minimum: 0 }),
});
export type FactorsReset = Static<typeof FactorsReset>;

// OAuth apps: the authorization server's clients (docs/management-api.md, "OAuth apps")

/** An OAuth app (a client of the passport's OpenID provider), without its secret. */
export const ManagedApp = Type.Object({
  /** The app's `client_id`. */
  id: Type.String(),
  name: Type.String(),
  /** An https URL of the app's icon; empty for none. */
  logo_uri: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  /** The scopes the app may ask for (`user_info` always among them). */
  scopes: Type.Array(Type.String()),
  /** The person who registered it in the developer console; null for the deployment's own apps. */
  owner_user_id: Type.Union([Type.String(), Type.Null()]),
  /** How many people have a live authorisation of the app. */
  authorized_count: Type.Integer({ minimum: 0 }),
  created_at: Type.Number(),
});
export type ManagedApp = Static<typeof ManagedApp>;

/** A new app or a rotated secret: `client_secret` is in this answer only. */
export const ManagedAppWithSecret = Type.Object({ ...ManagedApp.properties, client_secret: Type.String() });
export type ManagedAppWithSecret = Static<typeof ManagedAppWithSecret>;

export const AppPage = Type.Object({
  apps: Type.Array(ManagedApp),
  /** Null on the last page. */
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type AppPage = Static<typeof AppPage>;
export const AppIdParams = Type.Object({ id: Id });
export type AppIdParams = Static<typeof AppIdParams>;

const AppName = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' });
const LogoUri = Type.String({ maxLength: 2048, pattern: '^(https://\\S+)?$' });
/** Each https, or http on the loopback interface; no fragment, no credentials; matched exactly. */
const RedirectUris = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
  minItems: 1,
  maxItems: 10,
});
/** Scope names of the deployment (`user_info` is always added). */
const AppScopes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 });

export const CreateAppBody = Type.Object({
  name: AppName,
  logo_uri: Type.Optional(LogoUri),
  redirect_uris: RedirectUris,
  scopes: Type.Optional(AppScopes),
});
export type CreateAppBody = Static<typeof CreateAppBody>;

/** What is given changes; what is left out stays. */
export const UpdateAppBody = Type.Object({
  name: Type.Optional(AppName),
  logo_uri: Type.Optional(LogoUri),
  redirect_uris: Type.Optional(RedirectUris),
  scopes: Type.Optional(AppScopes),
});
export type UpdateAppBody = Static<typeof UpdateAppBody>;

export const AppDeleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
export type AppDeleted = Static<typeof AppDeleted>;

/** The management calls: method and path (under MANAGEMENT_BASE_PATH), and the scope each needs. */
export const MANAGEMENT_CALLS = {
  listUsers: { method: 'GET', path: '/users', scope: 'users:read' },
  getUser: { method: 'GET', path: '/users/:id', scope: 'users:read' },
  freezeUser: { method: 'POST', path: '/users/:id/freeze', scope: 'users:write' },
  unfreezeUser: { method: 'POST', path: '/users/:id/unfreeze', scope: 'users:write' },
  revokeUserSessions: { method: 'POST', path: '/users/:id/sessions/revoke', scope: 'users:write' },
  createUser: { method: 'POST', path: '/users', scope: 'users:write' },
  updateUser: { method: 'PATCH', path: '/users/:id', scope: 'users:write' },
  deleteUser: { method: 'DELETE', path: '/users/:id', scope: 'users:write' },
  listUserSessions: { method: 'GET', path: '/users/:id/sessions', scope: 'users:read' },
  listLinkedAccounts: { method: 'GET', path: '/users/:id/linked_accounts', scope: 'users:read' },
  unlinkAccount: { method: 'DELETE', path: '/users/:id/linked_accounts/:provider', scope: 'users:write' },
  resetFactors: { method: 'POST', path: '/users/:id/factors/reset', scope: 'users:write' },
  listOrganisations: { method: 'GET', path: '/organisations', scope: 'organisations:read' },
  getOrganisation: { method: 'GET', path: '/organisations/:id', scope: 'organisations:read' },
  listMembers: { method: 'GET', path: '/organisations/:id/members', scope: 'organisations:read' },
  listRoles: { method: 'GET', path: '/organisations/:id/roles', scope: 'organisations:read' },
  listInvitations: { method: 'GET', path: '/organisations/:id/invitations', scope: 'organisations:read' },
  revokeInvitation: {
    method: 'POST',
    path: '/organisations/:id/invitations/:invitation_id/revoke',
    scope: 'organisations:write',
  },
  listAuditEvents: { method: 'GET', path: '/audit/events', scope: 'audit:read' },
  listApps: { method: 'GET', path: '/apps', scope: 'apps:read' },
  getApp: { method: 'GET', path: '/apps/:id', scope: 'apps:read' },
  createApp: { method: 'POST', path: '/apps', scope: 'apps:write' },
  updateApp: { method: 'PATCH', path: '/apps/:id', scope: 'apps:write' },
  rotateAppSecret: { method: 'POST', path: '/apps/:id/rotate_secret', scope: 'apps:write' },
  deleteApp: { method: 'DELETE', path: '/apps/:id', scope: 'apps:write' },
} as const satisfies Record<string, { method: ManagementMethod; path: string; scope: ApiScope }>;

export type ManagementMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The header that makes a create safe to retry: the same key and body answer the first answer again. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

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
