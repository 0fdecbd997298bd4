import { Type } from 'typebox';
import { Code, CommonQuery, FORM, MixMode } from './common';

/** Authenticator apps and recovery codes (docs/factors.md). */

const NoBody = Type.Object({ mix_mode: MixMode }, { additionalProperties: true });
const CodeBody = Type.Object({ code: Code, mix_mode: MixMode }, { additionalProperties: true });

export const Factors = Type.Object({
  totp: Type.Object({
    enabled: Type.Boolean({ description: 'an authenticator app is set up (confirmed by a first code)' }),
    confirmed_at: Type.Union([Type.Integer({ description: 'ms since the epoch' }), Type.Null()]),
  }),
  recovery_codes: Type.Object({
    total: Type.Integer({ description: 'codes in the current set (0: none generated)' }),
    remaining: Type.Integer({ description: 'codes not used yet' }),
    created_at: Type.Union([Type.Integer({ description: 'ms since the epoch' }), Type.Null()]),
  }),
  methods: Type.Array(Type.String(), {
    description: "every way a second verification of this account accepts: 'sms', 'totp', 'recovery_code', …",
  }),
});

export const TotpStarted = Type.Object({
  secret: Type.String({ description: 'the base32 secret, shown once' }),
  uri: Type.String({ description: 'the otpauth:// URI (for the QR code), shown once' }),
  algorithm: Type.String(),
  digits: Type.Integer(),
  period: Type.Integer({ description: 'seconds per code' }),
  expires_in: Type.Integer({ description: 'seconds left to confirm it with a first code' }),
});

export const RecoveryCodes = Type.Object({
  codes: Type.Array(Type.String(), { description: 'the new codes, shown once; the old set no longer works' }),
});

export const schema = {
  factorList: {
    summary: "Signed in: the account's authenticator app and recovery codes, and the ways it can verify",
    tags: ['factors'],
    querystring: CommonQuery,
  },
  totpStart: {
    summary: 'Signed in, step-up: start setting up an authenticator app; the secret and URI are shown once',
    tags: ['factors'],
    consumes: FORM,
    querystring: CommonQuery,
    body: NoBody,
  },
  totpConfirm: {
    summary: 'Signed in: confirm the authenticator app by its first code; it then verifies sign-ins',
    tags: ['factors'],
    consumes: FORM,
    querystring: CommonQuery,
    body: CodeBody,
  },
  totpRemove: {
    summary: 'Signed in, step-up: remove the authenticator app',
    tags: ['factors'],
    consumes: FORM,
    querystring: CommonQuery,
    body: NoBody,
  },
  recoveryCodeGenerate: {
    summary: 'Signed in, step-up: ten new recovery codes, shown once; the old set stops working',
    tags: ['factors'],
    consumes: FORM,
    querystring: CommonQuery,
    body: NoBody,
  },
};
