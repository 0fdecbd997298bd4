import { operationRoute } from '../../adapters/operation-route';
import type { Operation } from '../../operations/define';
import {
  operatorWebhooks,
  organisationWebhooks,
  type WebhookCapability,
} from '../../operations/webhooks/endpoints';
import { CommonQuery, FORM } from '../../schemas/common';

/**
 * Webhook endpoints in the web app (docs/webhooks.md): the deployment's for operators (creating one or
 * rotating its secret needs a fresh step-up: the answer holds the secret), an organisation's for its
 * manager. The same operations as the management API's.
 */
const ROUTES: { capability: WebhookCapability; method: 'GET' | 'POST'; summary: string }[] = [
  {
    capability: 'create',
    method: 'POST',
    summary: 'register an endpoint; its signing secret is in this answer only',
  },
  { capability: 'list', method: 'GET', summary: 'the webhook endpoints' },
  { capability: 'update', method: 'POST', summary: "change an endpoint's URL, event types or description" },
  { capability: 'enable', method: 'POST', summary: 'send to an endpoint again' },
  { capability: 'disable', method: 'POST', summary: 'stop sending to an endpoint' },
  { capability: 'delete', method: 'POST', summary: 'delete an endpoint and its delivery log' },
  {
    capability: 'rotate_secret',
    method: 'POST',
    summary: 'a new signing secret, the old one signing for the overlap',
  },
  { capability: 'deliveries', method: 'GET', summary: "an endpoint's delivery log" },
  { capability: 'redeliver', method: 'POST', summary: 'send a delivery again' },
];

/**
 * Their paths: the server's own, not the SDKs' (no page calls them yet, and every page that imports the
 * SDKs' path tables would carry them).
 */
export const operatorWebhookPath = (capability: WebhookCapability) =>
  `/passport/web/operator/webhooks/${capability}/`;
export const organisationWebhookPath = (capability: WebhookCapability) =>
  `/passport/aff/web/webhook/${capability}/`;

const schemaOf = (who: string, summary: string, method: 'GET' | 'POST', tag: string) =>
  method === 'POST'
    ? { summary: `${who}: ${summary}`, tags: [tag], consumes: FORM, querystring: CommonQuery }
    : { summary: `${who}: ${summary}`, tags: [tag] };

export const operatorWebhookRoutes = ROUTES.map(({ capability, method, summary }) =>
  operationRoute(operatorWebhooks[capability] as Operation, {
    method,
    schema: schemaOf('Operators', summary, method, 'operator'),
    at: [['web', operatorWebhookPath(capability)]],
  }),
);

export const organisationWebhookRoutes = ROUTES.map(({ capability, method, summary }) =>
  operationRoute(organisationWebhooks[capability] as Operation, {
    method,
    schema: schemaOf("An organisation's manager", summary, method, 'organisations'),
    at: [['aff', organisationWebhookPath(capability)]],
  }),
);
