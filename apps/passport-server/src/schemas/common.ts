import { type TSchema, Type } from 'typebox';
import { LIMITS } from '../protocol';

/**
 * The common query parameters every SDK call carries (ARCHITECTURE.md, "Requests"). All optional and
 * bounded; unknown parameters are allowed (the SDK adds tracing and signing fields).
 */
export const CommonQuery = Type.Object(
  {
    aid: Type.Optional(Type.String({ maxLength: 32 })),
    account_sdk_source: Type.Optional(Type.String({ maxLength: 16 })),
    sdk_version: Type.Optional(Type.String({ maxLength: 32 })),
    language: Type.Optional(Type.String({ maxLength: 16, description: 'zh (default) or en' })),
    verifyFp: Type.Optional(Type.String({ maxLength: 128 })),
    did: Type.Optional(Type.String({ maxLength: 64 })),
    mix_mode: Type.Optional(Type.String({ maxLength: 2 })),
  },
  { additionalProperties: true },
);

/** A web-envelope success with `data`. */
export const WebSuccess = <T extends TSchema>(data: T) =>
  Type.Object({ message: Type.Literal('success'), data }, { description: 'success' });

/** The web-envelope failure every route may answer (HTTP 200 for a business failure, 4xx otherwise). */
export const WebFailure = Type.Object(
  {
    message: Type.Literal('error'),
    data: Type.Object(
      {
        error_code: Type.Integer({ description: 'a code from the error catalogue (docs/protocol.md)' }),
        description: Type.String(),
      },
      { additionalProperties: true },
    ),
  },
  { description: 'failure' },
);

/** Response schemas of a web route: documentation only (responses are serialised with JSON.stringify). */
export const webResponses = <T extends TSchema>(data: T) => ({
  200: Type.Union([WebSuccess(data), WebFailure]),
  '4xx': WebFailure,
});

/** The sso-envelope failure (`error_code` ≥ 1 at the top, the catalogue's data beside it). */
export const SsoFailure = Type.Object(
  {
    error_code: Type.Integer({ minimum: 1 }),
    description: Type.String(),
    data: Type.Object(
      { error_code: Type.Integer(), description: Type.String() },
      { additionalProperties: true },
    ),
  },
  { description: 'failure' },
);

/** Response schemas of an sso route: documentation only, as `webResponses`. */
export const ssoResponses = <T extends TSchema>(data: T) => ({
  200: Type.Union([
    Type.Object(
      { error_code: Type.Literal(0), description: Type.String(), data },
      { description: 'success' },
    ),
    SsoFailure,
  ]),
  '4xx': SsoFailure,
});

/** The open-auth failure (`status_code` ≥ 1, `status_msg`, the catalogue's data beside it). */
export const AuthFailure = Type.Object(
  {
    status_code: Type.Integer({ minimum: 1 }),
    status_msg: Type.String(),
    data: Type.Object(
      { error_code: Type.Integer(), description: Type.String() },
      { additionalProperties: true },
    ),
  },
  { description: 'failure' },
);

/** Response schemas of an open-auth route (/passport/open/…): documentation only, as `webResponses`. */
export const authResponses = <T extends TSchema>(data: T) => ({
  200: Type.Union([
    Type.Object({ status_code: Type.Literal(0), data }, { description: 'success' }),
    AuthFailure,
  ]),
  '4xx': AuthFailure,
});

/** `mix_mode` as it may arrive in a body: '1' / 1 when sensitive fields are encoded. */
export const MixMode = Type.Optional(
  Type.Union([Type.String({ maxLength: 2 }), Type.Integer({ minimum: 0, maximum: 99 })]),
);

/** A field the wire carries as text or as a whole number (aid, platform_app_id); both bounded. */
export const TextOrInteger = (maxLength: number, minLength = 0) =>
  Type.Union([
    Type.String({ minLength, maxLength }),
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  ]);

/** 0 or 1 flags such as need_frozen_user. */
export const Flag = Type.Optional(Type.Integer({ minimum: 0, maximum: 1 }));

export const Mobile = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'a mobile number; without +country it is read in DEFAULT_REGION',
});
export const Email = Type.String({ minLength: 3, maxLength: 254 });
export const Code = Type.String({
  minLength: 1,
  maxLength: 16,
  description: `the ${LIMITS.codeLength}-digit code`,
});
export const CodeTypeField = Type.Integer({
  minimum: 0,
  maximum: 1000,
  description: 'the code purpose (CodeType)',
});

/** POST bodies: form-encoded as the SDK sends them; JSON accepted too. */
export const FORM = ['application/x-www-form-urlencoded', 'application/json'];
