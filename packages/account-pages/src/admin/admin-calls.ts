import { accountQueryKeys, useAccountClient } from '@portico/account-react';
import { type AccountClient, type AccountError, defineCall } from '@portico/account-sdk';
import type {
  AuditEventPage,
  AuditEventsQuery,
  FactorsReset,
  LinkedAccountList,
  ManagedMember,
  ManagedOrganisation,
  ManagedUser,
  OrganisationPage,
  SessionList,
  SessionsRevoked,
  UserPage,
  UserState,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from '@portico/management/protocol';
import { type QueryKey, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/*
 * The admin console's calls (docs/admin-console.md): the server's operator routes, which run the
 * management API's operations with the operator's session as the caller (the browser holds no API
 * key). Declared here: the console is their only caller. A STEP_UP_REQUIRED answer opens the
 * provider's step-up dialog and the call is sent again (the SDK's step-up plugin).
 */

const CONSOLE = '/passport/web/operator/console/';
const read = <P extends object, D>(capability: string) =>
  defineCall<P, D, string>(`${CONSOLE}${capability}/`, null, 'GET');
const change = <P extends object, D>(capability: string) =>
  defineCall<P, D, string>(`${CONSOLE}${capability}/`);

/** What the console shows of an account beyond the management API's record. */
export interface UserOverview {
  factors: { totp: boolean; recovery_codes: number; passkeys: number };
  devices: { id: string; first_seen_at: number; last_seen_at: number; user_agent: string | null }[];
  organisations: { id: string; name: string; member_name: string; manager: boolean; frozen: boolean }[];
}
/** A management API key as listed (never the key itself). */
export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}
/** A new key: its secret in this answer only. */
export type CreatedApiKey = ApiKeyInfo & { key: string };
export interface CreateApiKey {
  name: string;
  /** Space-separated. */
  scopes: string;
  expires_in_days?: number;
}
export interface CreateWebhook {
  url: string;
  /** Space-separated types or prefixes ending in a dot; empty: every type. */
  event_types?: string;
  description?: string;
}

const calls = {
  users: read<{ query?: string; cursor?: string; limit?: number }, UserPage>('users/list'),
  user: read<{ id: string }, ManagedUser>('users/get'),
  overview: read<{ id: string }, UserOverview>('users/overview'),
  sessions: read<{ id: string }, SessionList>('users/sessions'),
  linked: read<{ id: string }, LinkedAccountList>('users/linked_accounts'),
  freeze: change<{ id: string }, UserState>('users/freeze'),
  unfreeze: change<{ id: string }, UserState>('users/unfreeze'),
  revokeSessions: change<{ id: string }, SessionsRevoked>('users/revoke_sessions'),
  resetFactors: change<{ id: string }, FactorsReset>('users/reset_factors'),
  organisations: read<{ cursor?: string; limit?: number }, OrganisationPage>('organisations/list'),
  organisation: read<{ id: string }, ManagedOrganisation>('organisations/get'),
  members: read<{ id: string }, { members: ManagedMember[] }>('organisations/members'),
  freezeOrganisation: change<{ id: string; is_frozen: 0 | 1 }, { id: string; frozen: boolean }>(
    'organisations/freeze',
  ),
  audit: read<AuditEventsQuery, AuditEventPage>('audit/list'),
  keys: defineCall<object, { keys: ApiKeyInfo[] }, string>(
    '/passport/web/operator/api_keys/list/',
    null,
    'GET',
  ),
  createKey: defineCall<CreateApiKey, CreatedApiKey, string>('/passport/web/operator/api_keys/create/'),
  revokeKey: defineCall<{ id: string }, ApiKeyInfo, string>('/passport/web/operator/api_keys/revoke/'),
  rotateKey: defineCall<{ id: string }, CreatedApiKey, string>('/passport/web/operator/api_keys/rotate/'),
  webhooks: defineCall<object, WebhookEndpointList, string>(
    '/passport/web/operator/webhooks/list/',
    null,
    'GET',
  ),
  createWebhook: defineCall<CreateWebhook, WebhookEndpointWithSecret, string>(
    '/passport/web/operator/webhooks/create/',
  ),
  updateWebhook: defineCall<{ id: string } & CreateWebhook, WebhookEndpoint, string>(
    '/passport/web/operator/webhooks/update/',
  ),
  enableWebhook: defineCall<{ id: string }, WebhookEndpoint, string>(
    '/passport/web/operator/webhooks/enable/',
  ),
  disableWebhook: defineCall<{ id: string }, WebhookEndpoint, string>(
    '/passport/web/operator/webhooks/disable/',
  ),
  deleteWebhook: defineCall<{ id: string }, { id: string; deleted: true }, string>(
    '/passport/web/operator/webhooks/delete/',
  ),
  rotateWebhookSecret: defineCall<{ id: string }, WebhookEndpointWithSecret, string>(
    '/passport/web/operator/webhooks/rotate_secret/',
  ),
  deliveries: defineCall<{ id: string; cursor?: string }, WebhookDeliveryPage, string>(
    '/passport/web/operator/webhooks/deliveries/',
    null,
    'GET',
  ),
  redeliver: defineCall<{ id: string; delivery_id: string }, object, string>(
    '/passport/web/operator/webhooks/redeliver/',
  ),
};

const ADMIN = [...accountQueryKeys.all, 'admin'] as const;

/** Keys of the console's queries (under `accountQueryKeys.all`: a sign-out drops them). */
export const adminQueryKeys = {
  all: ADMIN,
  users: (query: string) => [...ADMIN, 'users', query] as const,
  user: (id: string) => [...ADMIN, 'user', id] as const,
  organisations: [...ADMIN, 'organisations'] as const,
  organisation: (id: string) => [...ADMIN, 'organisation', id] as const,
  keys: [...ADMIN, 'keys'] as const,
  webhooks: [...ADMIN, 'webhooks'] as const,
  deliveries: (id: string) => [...ADMIN, 'deliveries', id] as const,
  audit: [...ADMIN, 'audit'] as const,
};

/** Leaves out empty fields: a form's blank filter means "any", not an empty value. */
const filled = <P extends object>(params: P) =>
  Object.fromEntries(Object.entries(params).filter(([, value]) => value !== '' && value !== undefined)) as P;

export const usersQueryOptions = (client: AccountClient, query: string, cursor = '') =>
  queryOptions({
    queryKey: [...adminQueryKeys.users(query), cursor],
    queryFn: ({ signal }) => calls.users(client, filled({ query, cursor, limit: 20 }), { signal }),
  });

/** One account with everything the console shows of it (each read leaves a trail in its stream). */
export const userDetailQueryOptions = (client: AccountClient, id: string) =>
  queryOptions({
    queryKey: adminQueryKeys.user(id),
    queryFn: async ({ signal }) => {
      const [user, overview, sessions, linked, audit] = await Promise.all([
        calls.user(client, { id }, { signal }),
        calls.overview(client, { id }, { signal }),
        calls.sessions(client, { id }, { signal }),
        calls.linked(client, { id }, { signal }),
        calls.audit(client, { user: id, limit: 20 }, { signal }),
      ]);
      return {
        user,
        overview,
        sessions: sessions.sessions,
        linked: linked.linked_accounts,
        audit: audit.events,
      };
    },
  });

export const organisationsQueryOptions = (client: AccountClient, cursor: string) =>
  queryOptions({
    queryKey: [...adminQueryKeys.organisations, cursor],
    queryFn: ({ signal }) => calls.organisations(client, filled({ cursor, limit: 20 }), { signal }),
  });

export const organisationDetailQueryOptions = (client: AccountClient, id: string) =>
  queryOptions({
    queryKey: adminQueryKeys.organisation(id),
    queryFn: async ({ signal }) => {
      const [organisation, members] = await Promise.all([
        calls.organisation(client, { id }, { signal }),
        calls.members(client, { id }, { signal }),
      ]);
      return { organisation, members: members.members };
    },
  });

export const auditQueryOptions = (client: AccountClient, filters: AuditEventsQuery) =>
  queryOptions({
    queryKey: [...adminQueryKeys.audit, filters],
    queryFn: ({ signal }) => calls.audit(client, filled({ ...filters, limit: 20 }), { signal }),
  });

export const apiKeysQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: adminQueryKeys.keys,
    queryFn: ({ signal }) => calls.keys(client, {}, { signal }),
  });

export const webhooksQueryOptions = (client: AccountClient) =>
  queryOptions({
    queryKey: adminQueryKeys.webhooks,
    queryFn: ({ signal }) => calls.webhooks(client, {}, { signal }),
  });

/** One page of an endpoint's delivery log, newest first (`''`: the first page). */
export const deliveriesQueryOptions = (client: AccountClient, id: string, cursor = '') =>
  queryOptions({
    queryKey: [...adminQueryKeys.deliveries(id), cursor],
    queryFn: ({ signal }) => calls.deliveries(client, filled({ id, cursor }), { signal }),
  });

/** A change through the console: once it succeeds, the queries it touches refresh (and the audit log). */
function useConsoleMutation<V, D>(
  call: (client: AccountClient, variables: V) => Promise<D>,
  touches: (variables: V) => readonly QueryKey[],
) {
  const client = useAccountClient();
  const queryClient = useQueryClient();
  return useMutation<D, AccountError, V>({
    mutationFn: (variables) => call(client, variables),
    onSuccess: (_data, variables) =>
      Promise.all(
        [...touches(variables), adminQueryKeys.audit].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

export type UserAction = 'freeze' | 'unfreeze' | 'revokeSessions' | 'resetFactors';
export const useUserAction = () =>
  useConsoleMutation(
    (client, { action, id }: { action: UserAction; id: string }) =>
      (calls[action] as (c: AccountClient, p: { id: string }) => Promise<unknown>)(client, { id }),
    ({ id }) => [adminQueryKeys.user(id), [...ADMIN, 'users']],
  );
export const useFreezeOrganisation = () =>
  useConsoleMutation(
    (client, variables: { id: string; is_frozen: 0 | 1 }) => calls.freezeOrganisation(client, variables),
    ({ id }) => [adminQueryKeys.organisation(id), adminQueryKeys.organisations],
  );
export const useCreateApiKey = () =>
  useConsoleMutation(
    (client, key: CreateApiKey) => calls.createKey(client, key),
    () => [adminQueryKeys.keys],
  );
export const useRevokeApiKey = () =>
  useConsoleMutation(
    (client, id: string) => calls.revokeKey(client, { id }),
    () => [adminQueryKeys.keys],
  );
export const useRotateApiKey = () =>
  useConsoleMutation(
    (client, id: string) => calls.rotateKey(client, { id }),
    () => [adminQueryKeys.keys],
  );
export const useUpdateWebhook = () =>
  useConsoleMutation(
    (client, variables: { id: string } & CreateWebhook) => calls.updateWebhook(client, variables),
    () => [adminQueryKeys.webhooks],
  );
export type WebhookAction = 'enableWebhook' | 'disableWebhook' | 'deleteWebhook' | 'rotateWebhookSecret';
/** Enable, disable, delete, or rotate the secret of an endpoint (the rotation answers the new secret). */
export const useWebhookAction = () =>
  useConsoleMutation(
    (client, { action, id }: { action: WebhookAction; id: string }) =>
      (calls[action] as (c: AccountClient, p: { id: string }) => Promise<Partial<WebhookEndpointWithSecret>>)(
        client,
        { id },
      ),
    ({ id }) => [adminQueryKeys.webhooks, adminQueryKeys.deliveries(id)],
  );
export const useCreateWebhook = () =>
  useConsoleMutation(
    (client, webhook: CreateWebhook) => calls.createWebhook(client, webhook),
    () => [adminQueryKeys.webhooks],
  );
export const useRedeliver = () =>
  useConsoleMutation(
    (client, variables: { id: string; delivery_id: string }) => calls.redeliver(client, variables),
    ({ id }) => [adminQueryKeys.deliveries(id)],
  );

export type { ManagedUser, WebhookEndpoint };
