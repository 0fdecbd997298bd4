import { Type } from 'typebox';
import { defineEvent } from '../define';

/**
 * Webhook endpoints (docs/webhooks.md), in the stream `webhook:<id>`, in the organisation's log when the
 * endpoint is an organisation's. They name the endpoint's host, never its full URL (a query may hold a
 * token) nor its secret.
 */
const Endpoint = { host: Type.String(), eventTypes: Type.Array(Type.String()) };

export const webhookEvents = [
  defineEvent({
    type: 'webhook.endpoint_created',
    version: 1,
    summary: 'A webhook endpoint was registered.',
    data: Type.Object(Endpoint),
  }),
  defineEvent({
    type: 'webhook.endpoint_updated',
    version: 1,
    summary: 'A webhook endpoint was changed, enabled or disabled by hand.',
    data: Type.Object({ ...Endpoint, enabled: Type.Boolean() }),
  }),
  defineEvent({
    type: 'webhook.endpoint_deleted',
    version: 1,
    summary: 'A webhook endpoint was deleted with its delivery log.',
    data: Type.Object({ host: Type.String() }),
  }),
  defineEvent({
    type: 'webhook.secret_rotated',
    version: 1,
    summary:
      "A webhook endpoint's signing secret was replaced; the old one signs too until the overlap ends.",
    data: Type.Object({ host: Type.String(), previousUntil: Type.Number() }),
  }),
  defineEvent({
    type: 'webhook.endpoint_disabled',
    version: 1,
    summary: 'A webhook endpoint was disabled because every delivery failed for the whole retry period.',
    data: Type.Object({ host: Type.String(), failingSince: Type.Number() }),
  }),
] as const;
