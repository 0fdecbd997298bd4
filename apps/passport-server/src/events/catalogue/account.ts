import { Type } from 'typebox';
import { defineEvent } from '../define';

/** How a sign-in's credential was proven (flows/complete-sign-in's SignInProof, plus identity sign-ins). */
const Method = Type.String({ description: 'password, mobileCode, emailCode, thirdParty, qr, …' });
const Channel = Type.Union([Type.Literal('mobile'), Type.Literal('email')]);
/** A masked identifier ("+86138****0000", "u***@example.com"); erasure removes it. */
const Masked = Type.String({ description: 'the identifier, masked' });

/**
 * What happens to a person's account: sign-ins, sessions, sign-in methods, profile, cancellation. No
 * event carries a code, a password or a token; identifiers appear masked.
 */
export const accountEvents = [
  defineEvent({
    type: 'account.signed_in',
    version: 1,
    summary: 'A person signed in.',
    data: Type.Object({ method: Type.String(), newDevice: Type.Boolean() }),
  }),
  defineEvent({
    type: 'account.sign_in_failed',
    version: 1,
    summary: 'A sign-in to this account failed: a wrong password or a wrong code.',
    data: Type.Object({
      method: Method,
      reason: Type.Union([Type.Literal('wrong_password'), Type.Literal('wrong_code')]),
    }),
  }),
  defineEvent({
    type: 'account.session_revoked',
    version: 1,
    summary: 'A session ended before its time: the person signed out.',
    data: Type.Object({ reason: Type.Union([Type.Literal('signed_out'), Type.Literal('revoked')]) }),
  }),
  defineEvent({
    type: 'account.password_changed',
    version: 1,
    summary: 'The person changed their password (knowing the old one, or with a code).',
    data: Type.Object({}),
  }),
  defineEvent({
    type: 'account.password_set',
    version: 1,
    summary: 'The person set a password on an account that had none.',
    data: Type.Object({}),
  }),
  defineEvent({
    type: 'account.password_reset',
    version: 1,
    summary: 'The password was reset through a code sent to the account.',
    data: Type.Object({}),
  }),
  defineEvent({
    type: 'account.username_set',
    version: 1,
    summary: 'A username was set on an account that has a password: it signs in with both.',
    data: Type.Object({}),
  }),
  defineEvent({
    type: 'account.identifier_bound',
    version: 1,
    summary: 'A mobile number or e-mail address was added to the account.',
    data: Type.Object({ channel: Channel, identifier: Masked }),
  }),
  defineEvent({
    type: 'account.identifier_changed',
    version: 1,
    summary: 'The account’s mobile number or e-mail address was replaced.',
    data: Type.Object({ channel: Channel, identifier: Masked }),
  }),
  defineEvent({
    type: 'account.identifier_unbound',
    version: 1,
    summary: 'A mobile number or e-mail address was removed from the account.',
    data: Type.Object({ channel: Channel }),
  }),
  defineEvent({
    type: 'account.third_party_linked',
    version: 1,
    summary: 'A third-party sign-in (a provider account) was linked.',
    data: Type.Object({ provider: Type.String() }),
  }),
  defineEvent({
    type: 'account.third_party_unlinked',
    version: 1,
    summary: 'A third-party sign-in was unlinked.',
    data: Type.Object({ provider: Type.String() }),
  }),
  defineEvent({
    type: 'account.app_authorized',
    version: 1,
    summary: 'The person let a third-party app sign them in and use what they granted (consent given).',
    data: Type.Object({
      clientId: Type.String({ description: 'the app’s client_key' }),
      appName: Type.String(),
      scopes: Type.Array(Type.String(), { description: 'the scopes granted' }),
      refused: Type.Array(Type.String(), { description: 'optional scopes switched off' }),
    }),
  }),
  defineEvent({
    type: 'account.app_revoked',
    version: 1,
    summary: 'A third-party app lost the person’s authorisation with every token it held.',
    data: Type.Object({
      clientId: Type.String({ description: 'the app’s client_key' }),
      appName: Type.String(),
      reason: Type.Union([Type.Literal('revoked'), Type.Literal('frozen')], {
        description: 'revoked: by the person under “Authorised apps”; frozen: the account was frozen',
      }),
    }),
  }),
  defineEvent({
    type: 'account.change_disowned',
    version: 1,
    summary:
      'The person said a change to their sign-in methods was not them: every session ended and every remembered device was forgotten.',
    data: Type.Object({
      eventId: Type.String({ description: 'the disowned change’s event id' }),
      changeType: Type.String({ description: 'its type, e.g. account.identifier_bound' }),
    }),
  }),
  defineEvent({
    type: 'account.profile_updated',
    version: 1,
    summary: 'The person changed their profile: which fields, never their values.',
    data: Type.Object({ fields: Type.Array(Type.String()) }),
  }),
  defineEvent({
    type: 'account.factor_added',
    version: 1,
    summary: 'A second factor was added: an authenticator app (its first code confirmed it).',
    data: Type.Object({ method: Type.String({ description: "'totp', …" }) }),
  }),
  defineEvent({
    type: 'account.factor_removed',
    version: 1,
    summary: 'A second factor was removed.',
    data: Type.Object({ method: Type.String({ description: "'totp', …" }) }),
  }),
  defineEvent({
    type: 'account.recovery_codes_generated',
    version: 1,
    summary: 'A new set of recovery codes replaced the old one (never the codes themselves).',
    data: Type.Object({ count: Type.Integer() }),
  }),
  defineEvent({
    type: 'account.cancellation_requested',
    version: 1,
    summary: 'The person asked to cancel the account; it is erased at eraseAt unless abandoned.',
    data: Type.Object({ eraseAt: Type.Integer({ description: 'ms since the epoch' }) }),
  }),
  defineEvent({
    type: 'account.cancellation_abandoned',
    version: 1,
    summary: 'The person withdrew their cancellation.',
    data: Type.Object({}),
  }),
  defineEvent({
    type: 'account.cancellation_completed',
    version: 1,
    summary: 'The account was erased: only this pseudonymous record remains.',
    data: Type.Object({}),
  }),
] as const;
