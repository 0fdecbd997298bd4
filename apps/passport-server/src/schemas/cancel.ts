import { Type } from 'typebox';
import { LIMITS } from '../protocol';
import { Code, CommonQuery, FORM, MixMode } from './common';

/** Account cancellation (issue 17). */

export const CancelWays = Type.Object({
  ways: Type.Array(
    Type.Object({
      way: Type.Union([Type.Literal('mobile'), Type.Literal('email'), Type.Literal('password')]),
      target: Type.String({ description: 'masked mobile or e-mail; empty for the password' }),
    }),
  ),
});

export const CancelCheck = Type.Object({
  can_cancel: Type.Boolean(),
  blockers: Type.Array(
    Type.Object({ key: Type.String(), detail: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }),
  ),
  losses: Type.Array(Type.Object({ key: Type.String(), count: Type.Integer() })),
  cooling_off_days: Type.Integer(),
  erase_at: Type.Optional(
    Type.Integer({ description: 'ms since the epoch, while a cancellation is pending' }),
  ),
});

export const CancelRequestBody = Type.Object(
  {
    way: Type.Union([Type.Literal('mobile'), Type.Literal('email'), Type.Literal('password')]),
    send: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
    code: Type.Optional(Code),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxBytes })),
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const CancelRequested = Type.Object({
  /** Set after `send: 1`: where the code went. */
  target: Type.Optional(Type.String()),
  retry_time: Type.Optional(Type.Integer()),
  /** Set once the person is verified: the ticket cancel/confirm takes. */
  cancel_ticket: Type.Optional(Type.String()),
  expires_in: Type.Optional(Type.Integer()),
});

export const CancelConfirmBody = Type.Object(
  {
    cancel_ticket: Type.Optional(Type.String({ maxLength: 64 })),
    abandon: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: true },
);

export const CancelConfirmed = Type.Object({
  state: Type.Union([Type.Literal('pending'), Type.Literal('abandoned')]),
  erase_at: Type.Optional(Type.Integer()),
});

/** account/get/user_data: everything the account holds, for the person to keep before cancelling. */
export const AccountExport = Type.Object({
  exported_at: Type.Integer(),
  account: Type.Object({
    user_id: Type.String(),
    mobile: Type.String({ description: "the account's own mobile, '' when none" }),
    email: Type.String({ description: "the account's own e-mail, '' when none" }),
    username: Type.String(),
    has_password: Type.Boolean(),
    created_at: Type.Integer(),
  }),
  profile: Type.Object({
    name: Type.String(),
    description: Type.String(),
    birthday: Type.String(),
    gender: Type.Integer(),
    avatar_url: Type.String(),
    language: Type.Union([Type.Literal(''), Type.Literal('zh'), Type.Literal('en')], {
      description: "the saved language (update/language), '' when none",
    }),
  }),
  images: Type.Array(
    Type.Object({
      key: Type.String(),
      kind: Type.Union([
        Type.Literal('avatar'),
        Type.Literal('pic'),
        Type.Literal('default-avatar'),
        Type.Literal('default-background'),
      ]),
      mime: Type.String(),
      width: Type.Integer(),
      height: Type.Integer(),
      size: Type.Integer(),
      review_state: Type.Union([Type.Literal('approved'), Type.Literal('pending'), Type.Literal('rejected')]),
      created_at: Type.Integer(),
      url: Type.String(),
    }),
  ),
  devices: Type.Array(
    Type.Object({ first_seen_at: Type.Integer(), last_seen_at: Type.Integer(), user_agent: Type.String() }),
  ),
  passkeys: Type.Array(
    Type.Object({
      name: Type.String(),
      device_type: Type.String(),
      backed_up: Type.Boolean(),
      created_at: Type.Integer(),
      last_used_at: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
  profile_changes: Type.Array(
    Type.Object({ namespace: Type.String(), field: Type.String(), at: Type.Integer() }),
  ),
  provisioned: Type.Array(
    Type.Object({
      organisation_id: Type.String(),
      user_name: Type.String(),
      external_id: Type.Union([Type.String(), Type.Null()]),
      active: Type.Boolean(),
      attributes: Type.Record(Type.String(), Type.Unknown(), {
        description: 'the SCIM User as the identity provider last sent it',
      }),
      created_at: Type.Integer(),
      updated_at: Type.Integer(),
    }),
    { description: 'what organisations’ identity providers sent about the person over SCIM' },
  ),
});

export const schema = {
  verifyWay: {
    summary: 'The ways the signed-in account can prove it is its owner before cancelling',
    tags: ['cancel'],
    querystring: CommonQuery,
  },
  check: {
    summary: 'What blocks cancelling this account and what cancelling will take away',
    tags: ['cancel'],
    querystring: CommonQuery,
  },
  request: {
    summary: 'Prove ownership (send: 1 sends a code to the own mobile or e-mail); answers a cancel_ticket',
    tags: ['cancel'],
    consumes: FORM,
    querystring: CommonQuery,
    body: CancelRequestBody,
  },
  confirm: {
    summary:
      'Cancel with a cancel_ticket (cooling-off period, signs out everywhere), or abandon: 1 to withdraw',
    tags: ['cancel'],
    consumes: FORM,
    querystring: CommonQuery,
    body: CancelConfirmBody,
  },
  export: {
    summary: 'Everything the signed-in account holds, as JSON',
    tags: ['cancel'],
    querystring: CommonQuery,
  },
};
