import { type TObject, type TProperties, Type } from 'typebox';
import { ROLE_RULES_MAX, SsoRoleRule } from '../domain/enterprise/sso-sign-in';
import { CommonQuery, FORM, MixMode } from './common';

/** Request and response schemas of enterprise sign-in in the affiliate family (docs/enterprise-sso.md). */

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Domain = Type.String({ minLength: 1, maxLength: 253, description: 'a domain, e.g. example.com' });
const subjectUid = { subject_uid: Id };

const query = <P extends TProperties>(fields: P) =>
  Type.Object({ ...CommonQuery.properties, ...fields }, { additionalProperties: true });
const body = <P extends TProperties>(fields: P) =>
  Type.Object({ ...fields, mix_mode: MixMode }, { additionalProperties: true });
const post = <B extends TObject>(summary: string, b: B) => ({
  summary,
  tags: ['organisations'],
  consumes: FORM,
  querystring: CommonQuery,
  body: b,
});
const get = <Q extends TObject>(summary: string, q: Q) => ({
  summary,
  tags: ['organisations'],
  querystring: q,
});

export const DomainData = Type.Object(
  {
    domain: Type.String(),
    verified: Type.Boolean(),
    verified_at: Type.Union([Type.Integer(), Type.Null()]),
    record_name: Type.String({ description: 'publish a TXT record at this name' }),
    record_value: Type.String({ description: 'holding this value' }),
    created_at: Type.Integer(),
  },
  { description: 'an organisation’s e-mail domain' },
);
export const DomainList = Type.Object({ items: Type.Array(DomainData) });
export const DomainRemoved = Type.Object({ domain: Type.String() });

export const OidcConnectionData = Type.Object(
  {
    protocol: Type.Literal('oidc'),
    issuer: Type.String(),
    client_id: Type.String(),
    has_secret: Type.Boolean({ description: 'a client secret is on file (sealed, never sent back)' }),
    updated_at: Type.Integer(),
  },
  { description: 'an organisation’s OpenID Connect connection' },
);
export const SamlConnectionData = Type.Object(
  {
    protocol: Type.Literal('saml'),
    issuer: Type.String({ description: 'the identity provider’s entity id' }),
    sso_url: Type.String({ description: 'the identity provider’s single sign-on address (HTTP-Redirect)' }),
    certificates: Type.Integer({ description: 'how many signing certificates are on file' }),
    sp_entity_id: Type.String({
      description: 'our entity id for this organisation: give it to the provider',
    }),
    acs_url: Type.String({
      description: 'our assertion consumer service (HTTP-POST): give it to the provider',
    }),
    sp_metadata_url: Type.String({ description: 'our service provider metadata, to upload at the provider' }),
    metadata_url: Type.Union([Type.String(), Type.Null()], {
      description:
        'the address the provider’s metadata was read from (saving it again reads it again); null: given',
    }),
    updated_at: Type.Integer(),
  },
  { description: 'an organisation’s SAML 2.0 connection' },
);
export const ConnectionData = Type.Union([OidcConnectionData, SamlConnectionData], {
  description: 'an organisation’s single sign-on connection',
});
export const ConnectionRemoved = Type.Object({ removed: Type.Boolean() });

export const SsoPolicyData = Type.Object(
  {
    require_sso: Type.Boolean({
      description: 'members whose e-mail is in a verified domain sign in to the organisation only through it',
    }),
    default_role_key: Type.Union([Type.String(), Type.Null()], {
      description: 'the role of a first sign-in’s membership when no rule matches',
    }),
    role_rules: Type.Array(SsoRoleRule, { description: 'a claim holding a value gives a role, in order' }),
    jit_provisioning: Type.Boolean({
      description: 'a first sign-in through the connection makes the membership; off, only members sign in',
    }),
  },
  { description: 'an organisation’s single sign-on policy' },
);

export const schemas = {
  domainAdd: post(
    'Add an e-mail domain to the organisation (sso:manage); the answer names the TXT record to publish',
    body({ ...subjectUid, domain: Domain }),
  ),
  domainList: get('The organisation’s e-mail domains (sso:manage)', query(subjectUid)),
  domainVerify: post(
    'Look the domain’s TXT record up and mark it verified when it holds the value asked for (sso:manage)',
    body({ ...subjectUid, domain: Domain }),
  ),
  domainRemove: post('Remove an e-mail domain (sso:manage)', body({ ...subjectUid, domain: Domain })),
  connectionSave: post(
    'Set the organisation’s OpenID Connect connection (sso:manage); the issuer’s discovery is read first',
    body({
      ...subjectUid,
      issuer: Type.String({ minLength: 1, maxLength: 512 }),
      client_id: Type.String({ minLength: 1, maxLength: 256 }),
      client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    }),
  ),
  samlConnectionSave: post(
    'Set the organisation’s SAML 2.0 connection (sso:manage): the provider’s metadata (its address, or the XML), or its entity id, address and certificate',
    body({
      ...subjectUid,
      metadata_url: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2048,
          description:
            'the address the identity provider publishes its metadata at: read by the server (https)',
        }),
      ),
      metadata_xml: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200_000,
          description: 'the identity provider’s metadata XML',
        }),
      ),
      entity_id: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
      sso_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
      certificate: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 16_384,
          description: 'the signing certificate, PEM or base64',
        }),
      ),
    }),
  ),
  connectionInfo: get('The organisation’s connection, without its secret (sso:manage)', query(subjectUid)),
  connectionRemove: post('Remove the organisation’s connection (sso:manage)', body(subjectUid)),
  policySave: post(
    'Set the organisation’s single sign-on policy (sso:manage): require it, and the roles of a first sign-in',
    body({
      ...subjectUid,
      require_sso: Type.Boolean(),
      jit_provisioning: Type.Optional(
        Type.Boolean({ description: 'absent: as it stands (on for a new policy)' }),
      ),
      default_role_key: Type.Optional(Type.String({ maxLength: 64, description: 'empty: none' })),
      role_rules: Type.Optional(
        Type.Union([
          Type.String({ maxLength: 16384, description: 'a JSON array of { claim, value, role_key }' }),
          Type.Array(SsoRoleRule, { maxItems: ROLE_RULES_MAX }),
        ]),
      ),
    }),
  ),
  policyInfo: get('The organisation’s single sign-on policy (sso:manage)', query(subjectUid)),
  membershipAccept: post(
    'The signed-in person: accept (or decline) the membership an organisation’s identity provider provisioned for their account',
    body({ ...subjectUid, decline: Type.Optional(Type.Boolean()) }),
  ),
};
