import { MANAGEMENT_BASE_PATH, MANAGEMENT_CALLS, Problem } from '@portico/management/protocol';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { invoke, type Principal } from '../../adapters/invoke';
import { scopesOf, touchKey, usableKey } from '../../domain/api-keys/api-keys';
import { PassportError } from '../../errors';
import { rateLimitKey } from '../../lib/ip';
import type { Operation } from '../../operations/define';
import {
  freezeUser,
  getUser,
  listUsers,
  revokeUserSessions,
  unfreezeUser,
} from '../../operations/management/users';

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
  return { kind: 'apiKey', keyId: row.id, scopes: new Set(scopesOf(row)) };
}

const CALLS: { call: keyof typeof MANAGEMENT_CALLS; operation: Operation; summary: string }[] = [
  {
    call: 'listUsers',
    operation: listUsers as unknown as Operation,
    summary: 'Accounts, newest first, by cursor',
  },
  { call: 'getUser', operation: getUser as unknown as Operation, summary: 'One account' },
  {
    call: 'freezeUser',
    operation: freezeUser as unknown as Operation,
    summary: 'Freeze (ban) an account; its sessions end',
  },
  { call: 'unfreezeUser', operation: unfreezeUser as unknown as Operation, summary: 'Thaw a frozen account' },
  {
    call: 'revokeUserSessions',
    operation: revokeUserSessions as unknown as Operation,
    summary: 'End every session of an account',
  },
];

const management: FastifyPluginAsync = async (app) => {
  const principals = new WeakMap<FastifyRequest, Principal>();
  for (const { call, operation, summary } of CALLS) {
    const { method, path } = MANAGEMENT_CALLS[call];
    const hasId = path.includes(':id');
    app.route({
      method,
      url: `${MANAGEMENT_BASE_PATH}${path}`,
      config: { envelope: 'problem', csrf: false },
      schema: {
        summary: `${summary} (scope ${MANAGEMENT_CALLS[call].scope})`,
        tags: ['management'],
        // Every route declares each part it reads (the inventory test): the id in the path, the list's
        // filters in the query, and an empty JSON body for a POST.
        ...(hasId ? { params: operation.input, querystring: NoFields } : { querystring: operation.input }),
        ...(method === 'POST' ? { body: NoFields } : {}),
        response: { 200: operation.output as TSchema, '4xx': Problem, '5xx': Problem },
      },
      // The key before the input is validated (a caller without one learns nothing of its rules), once
      // the body is read (an oversized body is a 413 whoever sends it).
      preValidation: async (request) => {
        principals.set(request, await keyPrincipal(app, request));
      },
      handler: async (request) => {
        const principal = principals.get(request) ?? (await keyPrincipal(app, request));
        const input = hasId ? request.params : (request.query ?? {});
        return invoke(app, operation, input as never, principal, { ip: request.ip, deviceId: null });
      },
    });
  }
};

export default management;
