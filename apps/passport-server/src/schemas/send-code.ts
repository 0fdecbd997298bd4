import { Type } from 'typebox';
import { LIMITS } from '../protocol';
import { CodeTypeField, CommonQuery, Email, FORM, MixMode, Mobile, webResponses } from './common';

export const SendCodeBody = Type.Object(
  { mobile: Mobile, type: CodeTypeField, mix_mode: MixMode },
  { additionalProperties: true },
);

/**
 * The web send_code: `mobile`, or `sms_code_key` of a second verification (the code goes to the
 * account's mobile, type 24). One of the two is required (a 400 naming body/mobile otherwise).
 */
export const WebSendCodeBody = Type.Object(
  {
    mobile: Type.Optional(Mobile),
    sms_code_key: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.smsCodeKeyMaxLength })),
    /** With `sms_code_key`: where the code goes, `sms` (the default) or `email` (the account's e-mail). */
    method: Type.Optional(Type.Union([Type.Literal('sms'), Type.Literal('email')])),
    type: CodeTypeField,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const EmailSendCodeBody = Type.Object(
  {
    email: Email,
    type: Type.Optional(CodeTypeField),
    /** The sso flavour names the purpose ect_type. */
    ect_type: Type.Optional(CodeTypeField),
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const SendCodeData = Type.Object({
  mobile: Type.Optional(Type.String({ description: 'the masked number' })),
  email: Type.Optional(Type.String({ description: 'the masked address' })),
  retry_time: Type.Integer({ description: 'seconds before another code may be requested' }),
  expires_in: Type.Integer({ description: 'seconds the code stays valid' }),
});

export const sendCodeSchema = {
  summary:
    'Send a one-time code by SMS (to `mobile`, or to the account of a second verification’s `sms_code_key`)',
  tags: ['codes'],
  consumes: FORM,
  querystring: CommonQuery,
  body: WebSendCodeBody,
  response: webResponses(SendCodeData),
};

export const emailSendCodeSchema = {
  summary: 'Send a one-time code by e-mail',
  tags: ['codes'],
  consumes: FORM,
  querystring: CommonQuery,
  body: EmailSendCodeBody,
  response: webResponses(SendCodeData),
};
