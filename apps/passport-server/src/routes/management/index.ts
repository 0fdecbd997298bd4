import {
  AppIdParams,
  AuditEventsQuery,
  CreateAppBody,
  CreateUserBody,
  DeleteUserQuery,
  IDEMPOTENCY_HEADER,
  InvitationParams,
  LinkedAccountParams,
  ListUsersQuery,
  MANAGEMENT_BASE_PATH,
  MANAGEMENT_CALLS,
  OrganisationIdParams,
  PageQuery,
  Problem,
  ResetFactorsBody,
  UpdateAppBody,
  UpdateUserBody,
  UserIdParams,
} from '@portico/management/protocol';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { assertKeyMayCall, invoke, type Principal } from '../../adapters/invoke';
import { scopesOf, touchKey, usableKey } from '../../domain/api-keys/api-keys';
import { PassportError } from '../../errors';
import { createAppInput, updateAppInput } from '../../flows/client-metadata';
import { rateLimitKey } from '../../lib/ip';
import type { Operation } from '../../operations/define';
import {
  createApp,
  deleteApp,
  getApp,
  listApps,
  rotateAppSecret,
  updateApp,
} from '../../operations/management/apps';
import {
  getOrganisation,
  listAuditEvents,
  listInvitations,
  listMembers,
  listOrganisations,
  listRoles,
  revokeInvitation,
} from '../../operations/management/organisations';
import {
  createUser,
  deleteUser,
  freezeUser,
  getUser,
  listLinkedAccounts,
  listUserSessions,
  listUsers,
  resetFactors,
  revokeUserSessions,
  unfreezeUser,
  unlinkAccount,
  updateUser,
} from '../../operations/management/users';
import { idempotent, keptAnswersSealer } from './idempotency';

/**
 * The management API (docs/management-api.md): one more adapter over the operations, for a product's
 * back end. The caller is an API key (`Authorization: Bearer portico_sk_…`), checked against the scope
 * the operation declares; answers are plain JSON, failures RFC 9457 problem details
 * (`application/problem+json`). No cookies and no CSRF: a browser's ambient credentials mean nothing
 * here, and the routes answer no cross-origin reads.
 */

/** Requests one key may make per minute; past it, 429. */
const KEY_REQUESTS_PER_MINUTE = 600;
/** Calls without a usable key one address may make per minute; past it, 429. */
const KEY_FAILURES_PER_MINUTE = 30;

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;

/** Nothing but what the route declares elsewhere; unknown fields pass (a client may add tracing). */
const NoFields = Type.Object({});

/** The key the request carries, usable now, as the operation's principal; API_KEY_INVALID (401) otherwise. */
export async function keyPrincipal(app: FastifyInstance, request: FastifyRequest): Promise<Principal> {
  const match = BEARER.exec(request.headers.authorization ?? '');
  const now = app.runtime.now();
  const row = match?.[1] ? await usableKey(app.db, app.secret, match[1], now) : undefined;
  if (!row) {
    // Guessing keys is slowed per address, and seen once per address and minute in the log.
    const failures = await app.store.incr(
      `api-key-fail:${rateLimitKey(request.ip)}:${Math.floor(now / 60_000)}`,
      120_000,
    );
    if (failures === 1) request.log.warn({ ip: request.ip }, 'a management API call with no usable key');
    if (failures > KEY_FAILURES_PER_MINUTE) throw new PassportError('rateLimited');
    throw new PassportError('apiKeyInvalid');
  }
  const minute = Math.floor(now / 60_000);
  if ((await app.store.incr(`api-key-rate:${row.id}:${minute}`, 120_000)) > KEY_REQUESTS_PER_MINUTE)
    throw new PassportError('rateLimited');
  await touchKey(app.db, row, now);
  return { kind: 'apiKey', keyId: row.id, scopes: new Set(scopesOf(row)), subjectId: row.subject_id };
}

/**
 * One management call: the operation it runs, and the parts of the request its input is made of (the
 * path's ids, the query, the JSON body), each declared for validation and the OpenAPI document. A create
 * honours an `Idempotency-Key`.
 */
interface Call {
  call: keyof typeof MANAGEMENT_CALLS;
  operation: Operation;
  summary: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  create?: true;
  /** The request's side, before the operation's transaction: the operation's input from the request's. */
  check?: (app: FastifyInstance, input: never) => Promise<object>;
}

const op = (operation: unknown) => operation as Operation;

const CALLS: Call[] = [
  {
    call: 'listUsers',
    operation: op(listUsers),
    summary: 'Accounts, newest first, by cursor',
    query: ListUsersQuery,
  },
  { call: 'getUser', operation: op(getUser), summary: 'One account', params: UserIdParams },
  {
    call: 'createUser',
    operation: op(createUser),
    summary: 'Create an account with a mobile or an e-mail (and a username, a name)',
    body: CreateUserBody,
    create: true,
  },
  {
    call: 'updateUser',
    operation: op(updateUser),
    summary: 'Change the name, the username or the description',
    params: UserIdParams,
    body: UpdateUserBody,
  },
  {
    call: 'deleteUser',
    operation: op(deleteUser),
    summary: 'Delete an account by the cancellation rules: after the cooling-off period, or now',
    params: UserIdParams,
    query: DeleteUserQuery,
  },
  {
    call: 'freezeUser',
    operation: op(freezeUser),
    summary: 'Freeze (ban) an account; its sessions end',
    params: UserIdParams,
  },
  {
    call: 'unfreezeUser',
    operation: op(unfreezeUser),
    summary: 'Thaw a frozen account',
    params: UserIdParams,
  },
  {
    call: 'revokeUserSessions',
    operation: op(revokeUserSessions),
    summary: 'End every session of an account',
    params: UserIdParams,
  },
  {
    call: 'listUserSessions',
    operation: op(listUserSessions),
    summary: 'The account’s live sessions',
    params: UserIdParams,
  },
  {
    call: 'listLinkedAccounts',
    operation: op(listLinkedAccounts),
    summary: 'The account’s linked third-party sign-ins',
    params: UserIdParams,
  },
  {
    call: 'unlinkAccount',
    operation: op(unlinkAccount),
    summary: 'Unlink a third-party sign-in (never the last way in)',
    params: LinkedAccountParams,
  },
  {
    call: 'resetFactors',
    operation: op(resetFactors),
    summary: 'Remove the authenticator app, recovery codes and passkeys',
    params: UserIdParams,
    body: ResetFactorsBody,
  },
  {
    call: 'listOrganisations',
    operation: op(listOrganisations),
    summary: 'Organisations, newest first, by cursor (an organisation’s key: its own)',
    query: PageQuery,
  },
  {
    call: 'getOrganisation',
    operation: op(getOrganisation),
    summary: 'One organisation',
    params: OrganisationIdParams,
  },
  {
    call: 'listMembers',
    operation: op(listMembers),
    summary: 'An organisation’s members and their roles',
    params: OrganisationIdParams,
  },
  {
    call: 'listRoles',
    operation: op(listRoles),
    summary: 'An organisation’s roles',
    params: OrganisationIdParams,
  },
  {
    call: 'listInvitations',
    operation: op(listInvitations),
    summary: 'An organisation’s invitations, newest first',
    params: OrganisationIdParams,
  },
  {
    call: 'revokeInvitation',
    operation: op(revokeInvitation),
    summary: 'Cancel a pending invitation: its link stops working',
    params: InvitationParams,
  },
  {
    call: 'listAuditEvents',
    operation: op(listAuditEvents),
    summary: 'Audit events, newest first, by cursor; filters by type, actor, person, organisation, time',
    query: AuditEventsQuery,
  },
  {
    call: 'listApps',
    operation: op(listApps),
    summary: 'OAuth apps (the authorization server’s clients), newest first, by cursor',
    query: PageQuery,
  },
  { call: 'getApp', operation: op(getApp), summary: 'One OAuth app', params: AppIdParams },
  {
    call: 'createApp',
    operation: op(createApp),
    summary: 'Register an OAuth app; its client secret is in this answer only',
    body: CreateAppBody,
    create: true,
    check: createAppInput,
  },
  {
    call: 'updateApp',
    operation: op(updateApp),
    summary: 'Change an OAuth app’s name, icon, redirect URIs or scopes',
    params: AppIdParams,
    body: UpdateAppBody,
    check: updateAppInput,
  },
  {
    call: 'rotateAppSecret',
    operation: op(rotateAppSecret),
    summary: 'A new client secret for an OAuth app (the old one stops working); shown once',
    params: AppIdParams,
  },
  {
    call: 'deleteApp',
    operation: op(deleteApp),
    summary: 'Delete an OAuth app with every authorisation and token issued to it',
    params: AppIdParams,
  },
];

const management: FastifyPluginAsync = async (app) => {
  const principals = new WeakMap<FastifyRequest, Principal>();
  const keptAnswers = keptAnswersSealer(app.secret);
  for (const { call, operation, summary, params, query, body, create, check } of CALLS) {
    const { method, path, scope } = MANAGEMENT_CALLS[call];
    const status = 200;
    app.route({
      method,
      url: `${MANAGEMENT_BASE_PATH}${path}`,
      config: { envelope: 'problem', csrf: false },
      schema: {
        summary: `${summary} (scope ${scope})`,
        tags: ['management'],
        // Every route declares each part it reads (the inventory test): the ids in the path, the
        // filters in the query, and a JSON body for a POST or PATCH (empty when it takes none).
        ...(params ? { params } : {}),
        querystring: query ?? NoFields,
        ...(method === 'POST' || method === 'PATCH' ? { body: body ?? NoFields } : {}),
        ...(create
          ? {
              headers: Type.Object({
                [IDEMPOTENCY_HEADER]: Type.Optional(
                  Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' }),
                ),
              }),
            }
          : {}),
        response: { [status]: operation.output as TSchema, '4xx': Problem, '5xx': Problem },
      },
      // The key before the input is validated (a caller without one learns nothing of its rules), once
      // the body is read (an oversized body is a 413 whoever sends it).
      preValidation: async (request) => {
        principals.set(request, await keyPrincipal(app, request));
      },
      handler: async (request, reply) => {
        const principal = principals.get(request) ?? (await keyPrincipal(app, request));
        const input = {
          ...((request.query as object | undefined) ?? {}),
          ...((request.body as object | undefined) ?? {}),
          ...((request.params as object | undefined) ?? {}),
        };
        // The key's scope before the input's checks, which read the provider's records.
        if (check) assertKeyMayCall(principal, operation);
        const run = async () =>
          invoke(app, operation, (check ? await check(app, input as never) : input) as never, principal, {
            ip: request.ip,
            deviceId: null,
          });
        const header = request.headers[IDEMPOTENCY_HEADER];
        const answer =
          create && typeof header === 'string' && principal.kind === 'apiKey'
            ? await idempotent(app.store, keptAnswers, principal.keyId, header, call, request.body, run)
            : await run();
        reply.code(status);
        return answer;
      },
    });
  }
};

export default management;
