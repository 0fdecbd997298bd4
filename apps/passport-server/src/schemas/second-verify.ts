import { Type } from 'typebox';
import { LIMITS } from '../protocol';
import { AccountInfo } from './account';
import { Code, CommonQuery, FORM, webResponses } from './common';
import { Credential } from './passkeys';

const SmsCodeKey = Type.String({
  minLength: 1,
  maxLength: LIMITS.smsCodeKeyMaxLength,
  description: 'the key of the SECOND_VERIFY (2046) failure',
});

/** The way a second verification or a step-up is answered: 'sms' (default), 'totp', 'recovery_code', … */
export const FactorMethodField = Type.String({
  minLength: 1,
  maxLength: 32,
  description:
    "how the code is proven: 'sms' (the default), 'totp' (an authenticator app), 'recovery_code', or another factor the account has (the 2046 data's `methods`)",
});

export const SmsLoginContinueBody = Type.Object(
  {
    sms_code_key: SmsCodeKey,
    code: Type.Optional(Code),
    method: Type.Optional(FactorMethodField),
    credential: Type.Optional(Credential),
  },
  { additionalProperties: true },
);

export const smsLoginContinueSchema = {
  summary:
    'Finish a sign-in that answered SECOND_VERIFY (2046): the SMS code sent with its sms_code_key; remembers the device',
  tags: ['login'],
  consumes: FORM,
  querystring: CommonQuery,
  body: SmsLoginContinueBody,
  response: webResponses(AccountInfo),
};

export const Device = Type.Object({
  id: Type.String(),
  first_seen_at: Type.Integer({ description: 'ms since the epoch' }),
  last_seen_at: Type.Integer({ description: 'ms since the epoch' }),
  user_agent: Type.String({ description: 'browser and system, e.g. "Chrome on macOS"' }),
  current: Type.Boolean({ description: 'the device this request comes from' }),
});

export const deviceListSchema = {
  summary: 'The devices the signed-in account has verified (never a fingerprint)',
  tags: ['account'],
  querystring: CommonQuery,
  response: webResponses(Type.Object({ devices: Type.Array(Device) })),
};

export const DeviceForgetBody = Type.Object(
  { device_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: true },
);

export const deviceForgetSchema = {
  summary: 'Forget one of the signed-in account’s devices: its next sign-in needs a second verification',
  tags: ['account'],
  consumes: FORM,
  querystring: CommonQuery,
  body: DeviceForgetBody,
  response: webResponses(Type.Object({})),
};
