import { Type } from 'typebox';
import { defineEvent } from '../define';

const Scopes = Type.Array(Type.String(), { description: 'the scopes the key holds' });

/**
 * What operators and the product's back end do through the management API: API keys, and accounts
 * frozen, thawed or signed out everywhere. No event carries a key.
 */
export const operatorEvents = [
  defineEvent({
    type: 'operator.api_key_created',
    version: 1,
    summary: 'An operator created an API key (or a new key by rotating one).',
    data: Type.Object({ name: Type.String(), prefix: Type.String(), scopes: Scopes }),
  }),
  defineEvent({
    type: 'operator.api_key_revoked',
    version: 1,
    summary: 'An operator revoked an API key: it stops working at once.',
    data: Type.Object({ prefix: Type.String() }),
  }),
  defineEvent({
    type: 'operator.api_key_rotated',
    version: 1,
    summary: 'An operator rotated an API key: the old one works until the overlap ends.',
    data: Type.Object({ prefix: Type.String(), replacedBy: Type.String(), expiresAt: Type.Number() }),
  }),
  defineEvent({
    type: 'account.frozen',
    version: 1,
    summary:
      'The account was frozen (banned) through the management API or the admin console: it cannot sign in.',
    data: Type.Object({}),
  }),
  defineEvent({
    type: 'account.unfrozen',
    version: 1,
    summary: 'The account was thawed through the management API or the admin console.',
    data: Type.Object({}),
  }),
  defineEvent({
    type: 'account.sessions_revoked',
    version: 1,
    summary: 'Every session of the account was ended through the management API or the admin console.',
    data: Type.Object({ count: Type.Integer() }),
  }),
  defineEvent({
    type: 'account.created',
    version: 1,
    summary: 'An account was made through the management API, with these identifiers (never their values).',
    data: Type.Object({
      identifiers: Type.Array(Type.String({ description: "'mobile', 'email', 'username'" })),
    }),
  }),
  defineEvent({
    type: 'account.viewed',
    version: 1,
    summary:
      'A back end (through the management API) or an operator (in the admin console) read the account: its record, sessions, linked accounts; the trail of who looked.',
    data: Type.Object({ call: Type.String({ description: "the call: 'getUser', 'listUserSessions', …" }) }),
  }),
  defineEvent({
    type: 'account.imported',
    version: 1,
    summary:
      "An account was made by the operator's import from another provider's export (docs/importing-users.md), with these identifiers (never their values).",
    data: Type.Object({
      source: Type.String({
        description: "the provider: 'auth0', 'supabase', 'firebase', 'better-auth', 'clerk'",
      }),
      identifiers: Type.Array(Type.String({ description: "'mobile', 'email', 'username'" })),
      password: Type.Boolean({ description: "whether the provider's password hash came with it" }),
    }),
  }),
] as const;
