import { Type } from 'typebox';
import { MAX_PAGE, SCIM_SCHEMAS } from '../../domain/scim/resources';
import { defineOperation } from '../define';
import { organisationOf, ScimListResponse, scimCaller } from './context';

/**
 * What the server supports (RFC 7644 §4): the service provider's configuration, the resource types
 * and their schemas, read by Okta and Entra ID when a connection is tested. Read with the key, as the
 * rest: nobody learns the deployment runs SCIM without one.
 */

const CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});
const multi = (name: string, subAttributes: unknown[], extra: Record<string, unknown> = {}) =>
  attribute(name, 'complex', { multiValued: true, subAttributes, ...extra });

const SCHEMAS = [
  {
    schemas: [SCHEMA_SCHEMA],
    id: SCIM_SCHEMAS.user,
    name: 'User',
    description: 'A person of the organisation: an account and its membership',
    attributes: [
      attribute('userName', 'string', { required: true, uniqueness: 'server' }),
      attribute('name', 'complex', {
        subAttributes: ['formatted', 'familyName', 'givenName'].map((n) => attribute(n, 'string')),
      }),
      attribute('displayName', 'string'),
      attribute('active', 'boolean'),
      attribute('externalId', 'string', { caseExact: true }),
      multi('emails', [
        attribute('value', 'string'),
        attribute('type', 'string'),
        attribute('primary', 'boolean'),
      ]),
      multi('groups', [attribute('value', 'string'), attribute('display', 'string')], {
        mutability: 'readOnly',
      }),
    ],
    meta: { resourceType: 'Schema', location: `/scim/v2/Schemas/${SCIM_SCHEMAS.user}` },
  },
  {
    schemas: [SCHEMA_SCHEMA],
    id: SCIM_SCHEMAS.group,
    name: 'Group',
    description: 'A role of the organisation; its members hold it',
    attributes: [
      attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      multi('members', [attribute('value', 'string'), attribute('display', 'string')]),
    ],
    meta: { resourceType: 'Schema', location: `/scim/v2/Schemas/${SCIM_SCHEMAS.group}` },
  },
];

const resourceType = (name: 'User' | 'Group', endpoint: string, schema: string) => ({
  schemas: [RESOURCE_TYPE_SCHEMA],
  id: name,
  name,
  endpoint,
  schema,
  ...(name === 'User'
    ? { schemaExtensions: [{ schema: SCIM_SCHEMAS.enterpriseUser, required: false }] }
    : {}),
  meta: { resourceType: 'ResourceType', location: `/scim/v2/ResourceTypes/${name}` },
});

const DOCUMENTS = {
  ServiceProviderConfig: {
    schemas: [CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'An organisation’s API key holding the scim scope',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: '/scim/v2/ServiceProviderConfig' },
  },
  ResourceTypes: [
    resourceType('User', '/Users', SCIM_SCHEMAS.user),
    resourceType('Group', '/Groups', SCIM_SCHEMAS.group),
  ],
  Schemas: SCHEMAS,
} as const;

const listOf = (resources: readonly object[]) => ({
  schemas: [SCIM_SCHEMAS.list],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: [...resources],
});

export const ScimDocument = Type.Union([
  ScimListResponse,
  Type.Object({ schemas: Type.Array(Type.String()) }, { additionalProperties: true }),
]);

export const readScimDiscovery = defineOperation({
  name: 'scim.discovery.read',
  input: Type.Object({
    document: Type.Union([
      Type.Literal('ServiceProviderConfig'),
      Type.Literal('ResourceTypes'),
      Type.Literal('Schemas'),
    ]),
  }),
  output: ScimDocument,
  caller: scimCaller,
  emits: [],
  async run(ctx, { document }) {
    organisationOf(ctx);
    const found = DOCUMENTS[document];
    return Array.isArray(found) ? listOf(found) : (found as unknown as { schemas: string[] });
  },
});
