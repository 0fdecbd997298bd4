/**
 * `@portico/management/protocol`: the management API's wire, once — the paths, the scopes an API key
 * may hold, and the TypeBox schemas of what each call takes and answers. The passport server validates
 * and documents with these schemas; the client takes its types from them (and ships none of them).
 */
import { type Static, Type } from 'typebox';

/** The management API's base path on the passport server. */
export const MANAGEMENT_BASE_PATH = '/api/v1';

/** What an API key may be allowed, one scope per resource and access. */
export const API_SCOPES = ['users:read', 'users:write', 'audit:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** The recognisable start of every key (secret scanners can match it). */
export const API_KEY_PREFIX = 'portico_sk_';

export const ApiScopeSchema = Type.Union(
  API_SCOPES.map((scope) => Type.Literal(scope)),
  { description: 'users:read, users:write or audit:read' },
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
