import { Type } from 'typebox';
import { CommonQuery, FORM, webResponses } from './common';

/** Passkeys (docs/factors.md): the WebAuthn ceremonies and the account's list. */

/** A person's name for a passkey: shown in their list and their activity only. */
export const PASSKEY_NAME_MAX = 64;

/**
 * The options a ceremony hands to `navigator.credentials` (SimpleWebAuthn's `…OptionsJSON`), as the
 * server generated them; the browser helper passes them through.
 */
export const CeremonyOptions = Type.Object(
  { challenge: Type.String({ description: 'base64url; single use, kept until expires_in' }) },
  { additionalProperties: true },
);

export const PasskeyOptions = Type.Object({
  options: CeremonyOptions,
  expires_in: Type.Integer({ description: 'seconds the challenge stays usable' }),
});

/** The browser's answer, as SimpleWebAuthn's `startRegistration` / `startAuthentication` return it. */
export const Credential = Type.String({
  minLength: 2,
  maxLength: 32_768,
  description: 'the RegistrationResponseJSON or AuthenticationResponseJSON, as JSON',
});

export const PasskeyOptionsBody = Type.Object({}, { additionalProperties: true });

export const PasskeyRegisterBody = Type.Object(
  {
    credential: Credential,
    name: Type.Optional(Type.String({ maxLength: PASSKEY_NAME_MAX })),
  },
  { additionalProperties: true },
);

export const PasskeyLoginBody = Type.Object({ credential: Credential }, { additionalProperties: true });

export const Passkey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  device_type: Type.Union([Type.Literal('singleDevice'), Type.Literal('multiDevice')], {
    description: 'multiDevice: synced between the person’s devices (a password manager, a platform account)',
  }),
  backed_up: Type.Boolean(),
  transports: Type.Array(Type.String()),
  created_at: Type.Integer({ description: 'ms since the epoch' }),
  last_used_at: Type.Union([Type.Integer(), Type.Null()], { description: 'ms since the epoch, or null' }),
});

export const PasskeyList = Type.Object({ passkeys: Type.Array(Passkey) });

export const PasskeyRenameBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: PASSKEY_NAME_MAX }),
  },
  { additionalProperties: true },
);

export const PasskeyRemoveBody = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: true },
);

export const PasskeyRemoved = Type.Object({ removed: Type.String({ description: 'the passkey’s id' }) });

/** What the sign-in operation proves: whose passkey it was; the route then signs them in. */
export const PasskeyProven = Type.Object({ user_id: Type.String() });

const tags = ['passkeys'];
/** factor/options: for a pending second verification (its key) or, without one, the signed-in account. */
export const PasskeyFactorOptionsBody = Type.Object(
  { sms_code_key: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) },
  { additionalProperties: true },
);

export const schema = {
  factorOptions: {
    summary:
      'Options to prove one of the account’s passkeys: a second verification (with its sms_code_key) or a step-up (signed in)',
    tags,
    consumes: FORM,
    querystring: CommonQuery,
    body: PasskeyFactorOptionsBody,
    response: webResponses(PasskeyOptions),
  },
  registerOptions: {
    summary: 'Options to create a passkey for the signed-in account (needs a recent verification)',
    tags,
    consumes: FORM,
    querystring: CommonQuery,
  },
  registerVerify: {
    summary: 'Registers the passkey the browser created (needs a recent verification)',
    tags,
    consumes: FORM,
    querystring: CommonQuery,
  },
  loginOptions: {
    summary: 'Options to sign in with a passkey, without an identifier (discoverable credentials)',
    tags,
    consumes: FORM,
    querystring: CommonQuery,
  },
  loginVerify: {
    summary: 'Signs in with the passkey the browser answered with',
    tags,
    consumes: FORM,
    querystring: CommonQuery,
  },
  list: { summary: 'The signed-in account’s passkeys', tags, querystring: CommonQuery },
  rename: {
    summary: 'Renames one of the account’s passkeys',
    tags,
    consumes: FORM,
    querystring: CommonQuery,
  },
  remove: {
    summary: 'Removes one of the account’s passkeys (needs a recent verification; never the last way in)',
    tags,
    consumes: FORM,
    querystring: CommonQuery,
  },
};
