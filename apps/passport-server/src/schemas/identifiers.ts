import { type TSchema, Type } from 'typebox';
import { LIMITS } from '../protocol';
import { AccountInfo } from './account';
import { Code, CodeTypeField, CommonQuery, Email, Flag, FORM, MixMode, Mobile, webResponses } from './common';
import { Credential } from './passkeys';
import { NewPassword } from './register';
import { FactorMethodField } from './second-verify';

/** Binding and changing identifiers, proving it is you, setting a username (docs/identifiers.md). */

const VerificationTicket = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'the ticket of auth/verify or account/verify, earned by this session',
});
const Purpose = Type.Optional(CodeTypeField);
const VerificationPurpose = Type.Optional(
  Type.String({
    maxLength: 32,
    description: "what the ticket is for: 'change_identifier' (default), 'cancel_account'",
  }),
);

const common = {
  code: Code,
  type: Purpose,
  /** 1: end every other session of the account. */
  kick_other: Flag,
  /** 1: move the target off another account that holds it (that account must keep a way in). */
  change_bind: Flag,
  mix_mode: MixMode,
};

export const MobileBindBody = Type.Object(
  { mobile: Mobile, ...common, ticket: Type.Optional(VerificationTicket), old_mobile: Type.Optional(Mobile) },
  { additionalProperties: true },
);
export const EmailBindBody = Type.Object(
  { email: Email, ...common, ticket: Type.Optional(VerificationTicket) },
  { additionalProperties: true },
);

/**
 * auth/verify: a code to the account's own mobile or e-mail (mobile when both are sent), or with
 * `method` a code of another factor the account has (an authenticator app, a recovery code).
 */
export const VerifyByCodeBody = Type.Object(
  {
    method: Type.Optional(FactorMethodField),
    mobile: Type.Optional(Mobile),
    email: Type.Optional(Email),
    code: Type.Optional(Code),
    credential: Type.Optional(Credential),
    type: Purpose,
    purpose: VerificationPurpose,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);
export const VerifyByPasswordBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxBytes }),
    purpose: VerificationPurpose,
    user_login_version: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);
export const SetAccountBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: NewPassword,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const IdentifierChanged = Type.Object({
  ...AccountInfo.properties,
  kicked_sessions: Type.Integer({ description: 'other sessions ended by kick_other' }),
  moved: Type.Boolean({ description: 'whether the target was moved off another account (change_bind)' }),
});

export const Verified = Type.Object({
  ticket: Type.String({ description: 'single use, bound to this session' }),
  expires_in: Type.Integer({ description: 'seconds the ticket stays valid' }),
  method: Type.String({
    description: "how it was earned: 'mobile', 'email', 'password', 'totp' or 'recovery_code'",
  }),
  purpose: Type.String(),
});

const route = <B extends TSchema, D extends TSchema>(summary: string, body: B, data: D) => ({
  summary,
  tags: ['identifiers'],
  consumes: FORM,
  querystring: CommonQuery,
  body,
  response: webResponses(data),
});

export const mobileBindSchema = route(
  'Signed in, no mobile yet: bind one with a code to it (type 8 or 17)',
  MobileBindBody,
  IdentifierChanged,
);
export const mobileChangeSchema = route(
  'Signed in: change the mobile with a verification ticket and a code to the new one (type 20)',
  MobileBindBody,
  IdentifierChanged,
);
export const emailBindSchema = route(
  'Signed in, no e-mail yet: bind one with a code to it (type 8 or 17)',
  EmailBindBody,
  IdentifierChanged,
);
export const emailChangeSchema = route(
  'Signed in: change the e-mail with a verification ticket and a code to the new one (type 7)',
  EmailBindBody,
  IdentifierChanged,
);
export const authVerifySchema = route(
  "Signed in: prove it is you with a code to the account's own mobile or e-mail (type 22); a ticket",
  VerifyByCodeBody,
  Verified,
);
export const accountVerifySchema = route(
  "Signed in: prove it is you with the account's password; a ticket",
  VerifyByPasswordBody,
  Verified,
);
export const setAccountSchema = route(
  'Signed in: set a username with a password (a first one, or the current one)',
  SetAccountBody,
  AccountInfo,
);
