import { operationRoute } from '../../adapters/operation-route';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../../operations/operator/api-keys';
import { paths } from '../../protocol';
import { CommonQuery, FORM } from '../../schemas/common';

/**
 * API keys of the management API, for operators signed in to the web app (docs/management-api.md).
 * Creating and rotating need a fresh step-up: the answer holds a credential that acts without a person.
 */
const post = (summary: string) => ({ summary, tags: ['operator'], consumes: FORM, querystring: CommonQuery });

export const apiKeyCreateRoute = operationRoute(createApiKey, {
  method: 'POST',
  schema: post('Operators: create a management API key with scopes; the key is in this answer only'),
  at: [['web', paths.web.operatorApiKeysCreate]],
});

export const apiKeyListRoute = operationRoute(listApiKeys, {
  method: 'GET',
  schema: { summary: 'Operators: the management API keys (never the keys themselves)', tags: ['operator'] },
  at: [['web', paths.web.operatorApiKeysList]],
});

export const apiKeyRevokeRoute = operationRoute(revokeApiKey, {
  method: 'POST',
  schema: post('Operators: revoke a management API key; it stops working at once'),
  at: [['web', paths.web.operatorApiKeysRevoke]],
});

export const apiKeyRotateRoute = operationRoute(rotateApiKey, {
  method: 'POST',
  schema: post('Operators: a new key for an old one, which keeps working for the overlap'),
  at: [['web', paths.web.operatorApiKeysRotate]],
});
