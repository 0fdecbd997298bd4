/**
 * `@portico/management`: a typed client for the passport's management API, for a product's back end.
 * Authenticated by an API key (created by an operator, shown once); every call answers the schema of
 * `@portico/management/protocol` or rejects with a ManagementError carrying the problem details.
 */
import type {
  AppDeleted,
  AppPage,
  AuditEventPage,
  AuditEventsQuery,
  CreateAppBody,
  CreateUserBody,
  CreateWebhookBody,
  DeleteUserQuery,
  FactorsReset,
  InvitationList,
  LinkedAccountList,
  ListDeliveriesQuery,
  ListUsersQuery,
  ManagedApp,
  ManagedAppWithSecret,
  ManagedInvitation,
  ManagedOrganisation,
  ManagedUser,
  MemberList,
  OrganisationPage,
  PageQuery,
  Problem,
  ResetFactorsBody,
  RoleList,
  RotateWebhookSecretBody,
  SessionList,
  SessionsRevoked,
  UpdateAppBody,
  UpdateUserBody,
  UpdateWebhookBody,
  UserDeleted,
  UserPage,
  UserState,
  WebhookDeleted,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from './protocol';

export type {
  ApiScope,
  AppDeleted,
  AppPage,
  AuditEvent,
  AuditEventPage,
  AuditEventsQuery,
  CreateAppBody,
  CreateUserBody,
  CreateWebhookBody,
  DeleteUserQuery,
  FactorKind,
  FactorsReset,
  InvitationList,
  LinkedAccount,
  LinkedAccountList,
  ListDeliveriesQuery,
  ListUsersQuery,
  ManagedApp,
  ManagedAppWithSecret,
  ManagedInvitation,
  ManagedMember,
  ManagedOrganisation,
  ManagedRole,
  ManagedSession,
  ManagedUser,
  MemberList,
  OrganisationPage,
  PageQuery,
  Problem,
  ResetFactorsBody,
  RoleList,
  RotateWebhookSecretBody,
  SessionList,
  SessionsRevoked,
  UpdateAppBody,
  UpdateUserBody,
  UpdateWebhookBody,
  UserDeleted,
  UserPage,
  UserState,
  WebhookAttempt,
  WebhookDeleted,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from './protocol';

/** Options of a create: an idempotency key makes it safe to send again (the same key answers the first answer). */
export interface CreateOptions {
  idempotencyKey?: string;
}

export interface ManagementClientOptions {
  /** The passport server's origin, `https://passport.example.com`. */
  baseUrl: string;
  /** An API key (`portico_sk_…`). Keep it on the server: it acts without a person. */
  apiKey: string;
  /** Default: the global fetch (Node 18+). */
  fetch?: typeof fetch;
}

/** A refused or failed call: the problem details the server answered (RFC 9457). */
export class ManagementError extends Error {
  readonly status: number;
  readonly code: number;
  /** The passport's error name (`INSUFFICIENT_SCOPE`, `ACCOUNT_NOT_FOUND`, …). */
  readonly errorName: string;
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(`${problem.title}: ${problem.detail}`);
    this.name = 'ManagementError';
    this.status = problem.status;
    this.code = problem.code;
    this.errorName = problem.name;
    this.problem = problem;
  }
}

export interface ManagementClient {
  users: {
    /** One page of accounts, newest first; pass `next_cursor` back as `cursor` for the next. */
    list(query?: ListUsersQuery): Promise<UserPage>;
    get(id: string): Promise<ManagedUser>;
    /**
     * Freezes (bans) the account: it cannot sign in, its sessions end and its apps lose their access.
     * An operator's account cannot be frozen by a key.
     */
    freeze(id: string): Promise<UserState>;
    unfreeze(id: string): Promise<UserState>;
    /** Ends every session of the account (sign out everywhere). */
    revokeSessions(id: string): Promise<SessionsRevoked>;
    /** Creates an account with a mobile or an e-mail (normalised), and optionally a username and a name. */
    create(body: CreateUserBody, options?: CreateOptions): Promise<ManagedUser>;
    /** Changes the name, the username or the description. */
    update(id: string, body: UpdateUserBody): Promise<ManagedUser>;
    /**
     * Deletes the account by the cancellation rules: erased after the cooling-off period (the person
     * may sign in and abandon), or at once with `{ erase: 'now' }`.
     */
    delete(id: string, query?: DeleteUserQuery): Promise<UserDeleted>;
    /** The account's live sessions. */
    sessions(id: string): Promise<SessionList>;
    /** The account's linked third-party sign-ins. */
    linkedAccounts(id: string): Promise<LinkedAccountList>;
    /** Unlinks a provider (never the account's last way in). */
    unlink(id: string, provider: string): Promise<LinkedAccountList>;
    /** Removes the authenticator app, recovery codes and passkeys (those named, or all three). */
    resetFactors(id: string, body?: ResetFactorsBody): Promise<FactorsReset>;
  };
  organisations: {
    /** One page of organisations, newest first (an organisation's key sees its own only). */
    list(query?: PageQuery): Promise<OrganisationPage>;
    get(id: string): Promise<ManagedOrganisation>;
    members(id: string): Promise<MemberList>;
    roles(id: string): Promise<RoleList>;
    invitations(id: string): Promise<InvitationList>;
    /** Cancels a pending invitation: its link stops working. */
    revokeInvitation(id: string, invitationId: string): Promise<ManagedInvitation>;
  };
  audit: {
    /** Audit events, newest first; pass `next_cursor` back as `cursor` for older ones. */
    list(query?: AuditEventsQuery): Promise<AuditEventPage>;
  };
  /**
   * OAuth apps: the clients of the passport's authorization server (scopes `apps:read`, `apps:write`),
   * the deployment's own and those people registered in the developer console.
   */
  apps: {
    /** One page of apps, newest first; pass `next_cursor` back as `cursor` for the next. */
    list(query?: PageQuery): Promise<AppPage>;
    get(id: string): Promise<ManagedApp>;
    /** Registers an app; keep `client_secret` now: it is never shown again. */
    create(body: CreateAppBody, options?: CreateOptions): Promise<ManagedAppWithSecret>;
    /** Changes the name, icon, redirect URIs or scopes; what is left out stays. */
    update(id: string, body: UpdateAppBody): Promise<ManagedApp>;
    /** A new secret (in this answer only); the old one stops working at once. */
    rotateSecret(id: string): Promise<ManagedAppWithSecret>;
    /** Deletes the app with every authorisation, code and token issued to it. */
    delete(id: string): Promise<AppDeleted>;
  };
  /** The deployment's webhook endpoints (scope `webhooks:write`); docs/webhooks.md. */
  webhooks: {
    list(): Promise<WebhookEndpointList>;
    /** Registers an endpoint; keep `secret` (`whsec_…`) now: it is never shown again. */
    create(body: CreateWebhookBody): Promise<WebhookEndpointWithSecret>;
    get(id: string): Promise<WebhookEndpoint>;
    update(id: string, body: UpdateWebhookBody): Promise<WebhookEndpoint>;
    disable(id: string): Promise<WebhookEndpoint>;
    /** Sends again; deliveries that waited go first. */
    enable(id: string): Promise<WebhookEndpoint>;
    /** Deletes the endpoint and its delivery log. */
    delete(id: string): Promise<WebhookDeleted>;
    /** A new secret (in this answer only); the old one also signs for `overlap_hours` (default 24). */
    rotateSecret(id: string, body?: RotateWebhookSecretBody): Promise<WebhookEndpointWithSecret>;
    /** The delivery log, newest first; pass `next_cursor` back as `cursor` for the next page. */
    deliveries(id: string, query?: ListDeliveriesQuery): Promise<WebhookDeliveryPage>;
    /** Sends a delivery again, with the same `webhook-id`. */
    redeliver(id: string, deliveryId: string): Promise<WebhookDelivery>;
  };
}

const BASE = '/api/v1';

export function createManagementClient(options: ManagementClientOptions): ManagementClient {
  const send = options.fetch ?? fetch;
  const origin = options.baseUrl.replace(/\/+$/, '');

  async function call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    { query, body, idempotencyKey }: { query?: object; body?: object; idempotencyKey?: string } = {},
  ): Promise<T> {
    const url = new URL(`${origin}${BASE}${path}`);
    for (const [key, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const sendsBody = method === 'POST' || method === 'PATCH';
    if (sendsBody) headers['content-type'] = 'application/json';
    const response = await send(url, {
      method,
      headers,
      ...(sendsBody ? { body: JSON.stringify(body ?? {}) } : {}),
    });
    const answer = (await response.json().catch(() => null)) as unknown;
    if (!response.ok) {
      const problem = answer as Partial<Problem> | null;
      throw new ManagementError({
        type: 'about:blank',
        title: response.statusText,
        detail: '',
        code: -1,
        name: 'UNKNOWN',
        ...problem,
        status: response.status,
      });
    }
    return answer as T;
  }

  const user = (id: string) => `/users/${encodeURIComponent(id)}`;
  const organisation = (id: string) => `/organisations/${encodeURIComponent(id)}`;
  const hook = (id: string) => `/webhooks/${encodeURIComponent(id)}`;
  const oauthApp = (id: string) => `/apps/${encodeURIComponent(id)}`;
  return {
    users: {
      list: (query = {}) => call<UserPage>('GET', '/users', { query }),
      get: (id) => call<ManagedUser>('GET', user(id)),
      freeze: (id) => call<UserState>('POST', `${user(id)}/freeze`),
      unfreeze: (id) => call<UserState>('POST', `${user(id)}/unfreeze`),
      revokeSessions: (id) => call<SessionsRevoked>('POST', `${user(id)}/sessions/revoke`),
      create: (body, { idempotencyKey } = {}) =>
        call<ManagedUser>('POST', '/users', { body, ...(idempotencyKey ? { idempotencyKey } : {}) }),
      update: (id, body) => call<ManagedUser>('PATCH', user(id), { body }),
      delete: (id, query = {}) => call<UserDeleted>('DELETE', user(id), { query }),
      sessions: (id) => call<SessionList>('GET', `${user(id)}/sessions`),
      linkedAccounts: (id) => call<LinkedAccountList>('GET', `${user(id)}/linked_accounts`),
      unlink: (id, provider) =>
        call<LinkedAccountList>('DELETE', `${user(id)}/linked_accounts/${encodeURIComponent(provider)}`),
      resetFactors: (id, body = {}) => call<FactorsReset>('POST', `${user(id)}/factors/reset`, { body }),
    },
    organisations: {
      list: (query = {}) => call<OrganisationPage>('GET', '/organisations', { query }),
      get: (id) => call<ManagedOrganisation>('GET', organisation(id)),
      members: (id) => call<MemberList>('GET', `${organisation(id)}/members`),
      roles: (id) => call<RoleList>('GET', `${organisation(id)}/roles`),
      invitations: (id) => call<InvitationList>('GET', `${organisation(id)}/invitations`),
      revokeInvitation: (id, invitationId) =>
        call<ManagedInvitation>(
          'POST',
          `${organisation(id)}/invitations/${encodeURIComponent(invitationId)}/revoke`,
        ),
    },
    audit: {
      list: (query = {}) => call<AuditEventPage>('GET', '/audit/events', { query }),
    },
    apps: {
      list: (query = {}) => call<AppPage>('GET', '/apps', { query }),
      get: (id) => call<ManagedApp>('GET', oauthApp(id)),
      create: (body, { idempotencyKey } = {}) =>
        call<ManagedAppWithSecret>('POST', '/apps', { body, ...(idempotencyKey ? { idempotencyKey } : {}) }),
      update: (id, body) => call<ManagedApp>('PATCH', oauthApp(id), { body }),
      rotateSecret: (id) => call<ManagedAppWithSecret>('POST', `${oauthApp(id)}/rotate_secret`),
      delete: (id) => call<AppDeleted>('DELETE', oauthApp(id)),
    },
    webhooks: {
      list: () => call<WebhookEndpointList>('GET', '/webhooks'),
      create: (body) => call<WebhookEndpointWithSecret>('POST', '/webhooks', { body }),
      get: (id) => call<WebhookEndpoint>('GET', hook(id)),
      update: (id, body) => call<WebhookEndpoint>('POST', hook(id), { body }),
      disable: (id) => call<WebhookEndpoint>('POST', `${hook(id)}/disable`),
      enable: (id) => call<WebhookEndpoint>('POST', `${hook(id)}/enable`),
      delete: (id) => call<WebhookDeleted>('DELETE', hook(id)),
      rotateSecret: (id, body = {}) =>
        call<WebhookEndpointWithSecret>('POST', `${hook(id)}/rotate_secret`, { body }),
      deliveries: (id, query = {}) => call<WebhookDeliveryPage>('GET', `${hook(id)}/deliveries`, { query }),
      redeliver: (id, deliveryId) =>
        call<WebhookDelivery>('POST', `${hook(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
    },
  };
}

export {
  createProtectedResource,
  type ProtectedResource,
  ProtectedResourceError,
  type ProtectedResourceMetadata,
  type ProtectedResourceOptions,
  type VerifiedAccessToken,
} from './protected-resource';
