import { type TProperties, Type } from 'typebox';
import { operationRoute } from '../../adapters/operation-route';
import {
  createOrganisationKey,
  listOrganisationKeys,
  revokeOrganisationKey,
} from '../../operations/organisation/api-keys';
import { affiliatePaths as paths } from '../../protocol';
import { CommonQuery, FORM } from '../../schemas/common';

/**
 * An organisation's management API keys, for its manager in the organisation console
 * (docs/management-api.md). Creating one needs a fresh step-up: the answer holds a credential that
 * acts without a person.
 */
const post = (summary: string, body: { properties: TProperties }) => ({
  summary,
  tags: ['organisations'],
  consumes: FORM,
  querystring: CommonQuery,
  body: Type.Object(body.properties, { additionalProperties: true }),
});

export const apiKeyCreate = operationRoute(createOrganisationKey, {
  method: 'POST',
  schema: post(
    'The manager: create a management API key limited to this organisation; the key is in this answer only',
    createOrganisationKey.input,
  ),
  at: [['aff', paths.apiKeyCreate]],
});

export const apiKeyList = operationRoute(listOrganisationKeys, {
  method: 'GET',
  schema: {
    summary: 'The manager: this organisation’s management API keys (never the keys themselves)',
    tags: ['organisations'],
    querystring: Type.Object(
      { ...CommonQuery.properties, ...listOrganisationKeys.input.properties },
      { additionalProperties: true },
    ),
  },
  at: [['aff', paths.apiKeyList]],
});

export const apiKeyRevoke = operationRoute(revokeOrganisationKey, {
  method: 'POST',
  schema: post(
    'The manager: revoke one of this organisation’s keys; it stops working at once',
    revokeOrganisationKey.input,
  ),
  at: [['aff', paths.apiKeyRevoke]],
});
