import {
  CreateWebhookBody,
  ListDeliveriesQuery,
  MANAGEMENT_BASE_PATH,
  Problem,
  RotateWebhookSecretBody,
  UpdateWebhookBody,
  WEBHOOK_CALLS,
  WebhookDeliveryParams,
  WebhookIdParams,
} from '@portico/management/protocol';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { invoke, type Principal } from '../../adapters/invoke';
import type { Operation } from '../../operations/define';
import { managementWebhooks as ops, type WebhookCapability } from '../../operations/webhooks/endpoints';
import { keyPrincipal } from './index';

/**
 * Webhook endpoints through the management API (docs/webhooks.md), scope `webhooks:write`: the
 * deployment's endpoints, the same operations the operators' web routes run. Like the other management
 * calls: an API key, JSON in and out, RFC 9457 problem details.
 */

const NoFields = Type.Object({});

/** Each call: its operation, and where its input comes from (the path, the query, the JSON body). */
const CALLS: {
  call: keyof typeof WEBHOOK_CALLS;
  capability: WebhookCapability;
  summary: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
}[] = [
  { call: 'listWebhooks', capability: 'list', summary: "The deployment's webhook endpoints" },
  {
    call: 'createWebhook',
    capability: 'create',
    summary: 'Register an endpoint; its signing secret is in this answer only',
    body: CreateWebhookBody,
  },
  { call: 'getWebhook', capability: 'get', summary: 'One endpoint', params: WebhookIdParams },
  {
    call: 'updateWebhook',
    capability: 'update',
    summary: "Change an endpoint's URL, event types or description",
    params: WebhookIdParams,
    body: UpdateWebhookBody,
  },
  {
    call: 'disableWebhook',
    capability: 'disable',
    summary: 'Stop sending to an endpoint',
    params: WebhookIdParams,
  },
  {
    call: 'enableWebhook',
    capability: 'enable',
    summary: 'Send to an endpoint again (what waited goes first)',
    params: WebhookIdParams,
  },
  {
    call: 'deleteWebhook',
    capability: 'delete',
    summary: 'Delete an endpoint and its delivery log',
    params: WebhookIdParams,
  },
  {
    call: 'rotateWebhookSecret',
    capability: 'rotate_secret',
    summary: 'A new signing secret; the old one also signs for the overlap',
    params: WebhookIdParams,
    body: RotateWebhookSecretBody,
  },
  {
    call: 'listWebhookDeliveries',
    capability: 'deliveries',
    summary: "An endpoint's delivery log, newest first, by cursor",
    params: WebhookIdParams,
    query: ListDeliveriesQuery,
  },
  {
    call: 'redeliverWebhook',
    capability: 'redeliver',
    summary: 'Send a delivery again (same webhook-id)',
    params: WebhookDeliveryParams,
  },
];

const managementWebhookRoutes: FastifyPluginAsync = async (app) => {
  const principals = new WeakMap<FastifyRequest, Principal>();
  for (const { call, capability, summary, params, query, body } of CALLS) {
    const { method, path } = WEBHOOK_CALLS[call];
    const operation = ops[capability];
    app.route({
      method,
      url: `${MANAGEMENT_BASE_PATH}${path}`,
      config: { envelope: 'problem', csrf: false },
      schema: {
        summary: `${summary} (scope webhooks:write)`,
        tags: ['management'],
        ...(params ? { params } : {}),
        querystring: query ?? NoFields,
        // A JSON body for a POST (empty when it takes none); a DELETE takes none, as HTTP means it.
        ...(method === 'POST' ? { body: body ?? NoFields } : {}),
        response: { 200: operation.output as TSchema, '4xx': Problem, '5xx': Problem },
      },
      // The key before the input is validated: a caller without one learns nothing of its rules.
      preValidation: async (request) => {
        principals.set(request, await keyPrincipal(app, request));
      },
      handler: async (request) => {
        const principal = principals.get(request) ?? (await keyPrincipal(app, request));
        const input = {
          ...(query ? (request.query as object) : {}),
          ...(body ? (request.body as object) : {}),
          ...(params ? (request.params as object) : {}),
        };
        return invoke(app, operation as Operation, input as never, principal, {
          ip: request.ip,
          deviceId: null,
        });
      },
    });
  }
};

export default managementWebhookRoutes;
