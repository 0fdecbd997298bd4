import { Type } from 'typebox';
import { defineEvent } from '../define';

/**
 * Enterprise sign-in in an organisation (docs/enterprise-sso.md): its e-mail domains. A domain is the
 * organisation's own name for itself, not a person's data, so the events carry it.
 */
const Domain = Type.Object({ domain: Type.String({ description: 'e.g. example.com' }) });

export const enterpriseEvents = [
  defineEvent({
    type: 'organisation.domain.added',
    version: 1,
    summary: 'A domain was added to an organisation, not yet verified.',
    data: Domain,
  }),
  defineEvent({
    type: 'organisation.domain.verified',
    version: 1,
    summary: 'An organisation proved it holds a domain: its DNS TXT record held the value asked for.',
    data: Domain,
  }),
  defineEvent({
    type: 'organisation.domain.removed',
    version: 1,
    summary: 'A domain was removed from an organisation (verified or not, as `verified` says).',
    data: Type.Object({ domain: Type.String(), verified: Type.Boolean() }),
  }),
  defineEvent({
    type: 'organisation.sso_connection.saved',
    version: 1,
    summary:
      'An organisation’s single sign-on connection (OpenID Connect or SAML 2.0) was set or changed (never a secret).',
    data: Type.Object({
      protocol: Type.Union([Type.Literal('oidc'), Type.Literal('saml')]),
      /** The OpenID issuer, or the SAML identity provider's entity id. */
      issuer: Type.String(),
      /** OIDC: the client id. */
      clientId: Type.Optional(Type.String()),
      /** OIDC: whether this save gave a new client secret. */
      secretChanged: Type.Optional(Type.Boolean()),
      /** SAML: the identity provider's single sign-on address. */
      ssoUrl: Type.Optional(Type.String()),
      /** SAML: how many signing certificates are on file. */
      certificates: Type.Optional(Type.Integer()),
      /** SAML: the address the identity provider's metadata was read from, when it was. */
      metadataUrl: Type.Optional(Type.String()),
    }),
  }),
  defineEvent({
    type: 'organisation.sso_connection.removed',
    version: 1,
    summary: 'An organisation’s single sign-on connection was removed.',
    data: Type.Object({
      protocol: Type.Union([Type.Literal('oidc'), Type.Literal('saml')]),
      issuer: Type.String(),
    }),
  }),
  defineEvent({
    type: 'organisation.sso_policy.saved',
    version: 1,
    summary:
      'An organisation’s single sign-on policy was set: whether it is required, and the roles of a first sign-in.',
    data: Type.Object({
      requireSso: Type.Boolean(),
      defaultRoleKey: Type.Union([Type.String(), Type.Null()]),
      roleRules: Type.Array(
        Type.Object({ claim: Type.String(), value: Type.String(), roleKey: Type.String() }),
      ),
      /** Present (false) when just-in-time membership was turned off. */
      jit: Type.Optional(Type.Boolean()),
    }),
  }),
  defineEvent({
    type: 'organisation.sso_identity.linked',
    version: 1,
    summary:
      'A person’s first sign-in through the organisation’s identity provider linked them to an account (a new one when `newAccount`).',
    data: Type.Object({ issuer: Type.String(), newAccount: Type.Boolean() }),
  }),
  defineEvent({
    type: 'organisation.member.provisioned',
    version: 1,
    summary:
      'A sign-in through the organisation’s identity provider made the person a member, with the roles its rules gave.',
    data: Type.Object({
      memberId: Type.String(),
      roleKeys: Type.Array(Type.String()),
      issuer: Type.String(),
    }),
  }),
  defineEvent({
    type: 'organisation.scim_user.provisioned',
    version: 1,
    summary:
      'The organisation’s identity provider provisioned a person over SCIM: an account (a new one when `newAccount`) and a membership.',
    data: Type.Object({
      scimId: Type.String(),
      memberId: Type.String(),
      newAccount: Type.Boolean(),
      /** The account was there before: its membership waits, frozen, for the person to accept. */
      awaitingAcceptance: Type.Optional(Type.Boolean()),
    }),
  }),
  defineEvent({
    type: 'organisation.scim_user.accepted',
    version: 1,
    summary:
      'The person accepted the membership the organisation’s identity provider provisioned for their account: in the console, or by signing in through the organisation’s connection.',
    data: Type.Object({
      scimId: Type.String(),
      memberId: Type.String(),
      proof: Type.Union([Type.Literal('accepted'), Type.Literal('enterpriseSso')]),
    }),
  }),
  defineEvent({
    type: 'organisation.scim_user.declined',
    version: 1,
    summary:
      'The person declined the membership the organisation’s identity provider provisioned for their account: it was removed.',
    data: Type.Object({ scimId: Type.String(), memberId: Type.String() }),
  }),
  defineEvent({
    type: 'organisation.scim_user.updated',
    version: 1,
    summary:
      'The organisation’s identity provider changed a provisioned person’s SCIM attributes (their names, not their values).',
    data: Type.Object({ scimId: Type.String(), fields: Type.Array(Type.String()) }),
  }),
  defineEvent({
    type: 'organisation.scim_user.deprovisioned',
    version: 1,
    summary:
      'The organisation’s identity provider deleted a provisioned person: their membership went with their roles and sessions in it.',
    data: Type.Object({ scimId: Type.String(), memberId: Type.Union([Type.String(), Type.Null()]) }),
  }),
  defineEvent({
    type: 'organisation.role.deleted',
    version: 1,
    summary: 'A role the identity provider made as a SCIM group was deleted, and its grants with it.',
    data: Type.Object({ roleKey: Type.String(), roleName: Type.String() }),
  }),
] as const;
