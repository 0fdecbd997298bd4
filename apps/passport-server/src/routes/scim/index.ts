import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { invoke, type Principal } from '../../adapters/invoke';
import { SCIM_ERROR_SCHEMA, SCIM_MEDIA_TYPE } from '../../http/envelopes';
import type { Operation } from '../../operations/define';
import { ListQuery, ResourceId, ScimBody } from '../../operations/scim/context';
import { readScimDiscovery } from '../../operations/scim/discovery';
import {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  listScimGroups,
  patchScimGroup,
  replaceScimGroup,
} from '../../operations/scim/groups';
import {
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
} from '../../operations/scim/users';
import { keyPrincipal } from '../management/index';

/**
 * SCIM 2.0 (RFC 7644) at `/scim/v2` for an organisation's identity provider (docs/scim.md): one more
 * adapter over operations, whose caller is an organisation's API key holding `scim`
 * (`Authorization: Bearer portico_sk_…`, checked before the input, as the management API does). Bodies
 * and answers are `application/scim+json`; failures SCIM's error schema.
 */

export const SCIM_BASE_PATH = '/scim/v2';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the request becomes the operation's input. */
type InputOf = (request: FastifyRequest) => unknown;
const fromQuery: InputOf = (request) => request.query;
const fromParams: InputOf = (request) => request.params;
const fromBody: InputOf = (request) => ({ body: request.body });
const ifMatchOf = (request: FastifyRequest) => {
  const header = request.headers['if-match'];
  return typeof header === 'string' ? { ifMatch: header } : {};
};
const fromParamsAndBody: InputOf = (request) => ({
  ...(request.params as object),
  ...ifMatchOf(request),
  body: request.body,
});
const fromParamsToDelete: InputOf = (request) => ({ ...(request.params as object), ...ifMatchOf(request) });

interface ScimCall {
  method: Method;
  path: string;
  operation: Operation;
  summary: string;
  input: InputOf;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** 201 with a Location for a create; 204 without a body for a delete; else 200. */
  status?: 201 | 204;
}

const op = (operation: unknown) => operation as Operation;
const discovery = (document: string) => (): unknown => ({ document });

/** Which verbs each resource answers (RFC 7644 §3.2). */
const resourceCalls = (
  path: '/Users' | '/Groups',
  what: string,
  ops: Record<'list' | 'get' | 'create' | 'replace' | 'patch' | 'remove', unknown>,
): ScimCall[] => [
  {
    method: 'GET',
    path,
    operation: op(ops.list),
    summary: `${what}s, filtered and paged`,
    input: fromQuery,
    query: ListQuery,
  },
  {
    method: 'POST',
    path,
    operation: op(ops.create),
    summary: `Create a ${what}`,
    input: fromBody,
    body: ScimBody,
    status: 201,
  },
  {
    method: 'GET',
    path: `${path}/:id`,
    operation: op(ops.get),
    summary: `One ${what}`,
    input: fromParams,
    params: ResourceId,
  },
  {
    method: 'PUT',
    path: `${path}/:id`,
    operation: op(ops.replace),
    summary: `Replace a ${what}`,
    input: fromParamsAndBody,
    params: ResourceId,
    body: ScimBody,
  },
  {
    method: 'PATCH',
    path: `${path}/:id`,
    operation: op(ops.patch),
    summary: `Change a ${what} (PatchOp)`,
    input: fromParamsAndBody,
    params: ResourceId,
    body: ScimBody,
  },
  {
    method: 'DELETE',
    path: `${path}/:id`,
    operation: op(ops.remove),
    summary: `Delete a ${what}`,
    input: fromParamsToDelete,
    params: ResourceId,
    status: 204,
  },
];

export const SCIM_CALLS: readonly ScimCall[] = [
  ...resourceCalls('/Users', 'User', {
    list: listScimUsers,
    get: getScimUser,
    create: createScimUser,
    replace: replaceScimUser,
    patch: patchScimUser,
    remove: deleteScimUser,
  }),
  ...resourceCalls('/Groups', 'Group', {
    list: listScimGroups,
    get: getScimGroup,
    create: createScimGroup,
    replace: replaceScimGroup,
    patch: patchScimGroup,
    remove: deleteScimGroup,
  }),
  ...(['ServiceProviderConfig', 'ResourceTypes', 'Schemas'] as const).map(
    (document): ScimCall => ({
      method: 'GET',
      path: `/${document}`,
      operation: op(readScimDiscovery),
      summary: `The ${document} document`,
      input: discovery(document),
    }),
  ),
];

const ScimError = Type.Object({
  schemas: Type.Array(Type.Literal(SCIM_ERROR_SCHEMA)),
  status: Type.String(),
  scimType: Type.Optional(Type.String()),
  detail: Type.String(),
  /** The passport's code and name of the refusal (API_KEY_INVALID), for the logs. */
  code: Type.Integer(),
  name: Type.String(),
});

const NoFields = Type.Object({});

const scim: FastifyPluginAsync = async (app) => {
  // SCIM clients send their bodies as application/scim+json (RFC 7644 §3.1): JSON, read as JSON.
  app.addContentTypeParser(
    'application/scim+json',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    app.getDefaultJsonParser('error', 'error'),
  );
  const principals = new WeakMap<FastifyRequest, Principal>();
  for (const { method, path, operation, summary, input, params, query, body, status = 200 } of SCIM_CALLS) {
    app.route({
      method,
      url: `${SCIM_BASE_PATH}${path}`,
      config: { envelope: 'scim', csrf: false },
      schema: {
        summary: `${summary} (scope scim)`,
        tags: ['scim'],
        ...(params ? { params } : {}),
        querystring: query ?? NoFields,
        ...(body ? { body } : {}),
        // A write may name the versions it changes (RFC 7644 §3.14).
        ...(method === 'PUT' || method === 'PATCH' || method === 'DELETE'
          ? { headers: Type.Object({ 'if-match': Type.Optional(Type.String({ maxLength: 1000 })) }) }
          : {}),
        response: {
          [status]: status === 204 ? Type.Null() : (operation.output as TSchema),
          '4xx': ScimError,
          '5xx': ScimError,
        },
      },
      // The key before the body is even read: a caller without one has no megabyte of JSON parsed
      // for it, and learns nothing of the input's rules.
      onRequest: async (request) => {
        principals.set(request, await keyPrincipal(app, request));
      },
      handler: async (request, reply) => {
        const principal = principals.get(request) ?? (await keyPrincipal(app, request));
        const answer = (await invoke(app, operation, input(request) as never, principal, {
          ip: request.ip,
          deviceId: null,
        })) as { id?: unknown; meta?: { version?: unknown; location?: unknown } };
        reply.header('cache-control', 'no-store');
        if (status === 204) return reply.code(204).send();
        if (typeof answer.meta?.version === 'string') reply.header('etag', answer.meta.version);
        if (status === 201 && typeof answer.meta?.location === 'string')
          reply.header('location', answer.meta.location);
        return reply.code(status).type(SCIM_MEDIA_TYPE).send(answer);
      },
    });
  }
};

export default scim;
