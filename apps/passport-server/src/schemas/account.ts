import { Type } from 'typebox';
import { CommonQuery, webResponses } from './common';

/** The active organisation identity, as account/info and the sign-ins carry it. */
export const ActiveOrg = Type.Object({
  sec_subject_uid: Type.String(),
  subject_name: Type.String(),
  user_identity_id: Type.String(),
  deputy_name: Type.String(),
  is_manager: Type.Boolean(),
  is_frozen: Type.Integer({
    description: '1 when the identity or its subject is frozen: no permissions then',
  }),
  subject_is_frozen: Type.Integer(),
  permissions: Type.Array(Type.String()),
});

/** What the client learns about the signed-in account. Identifiers are masked. */
export const AccountInfo = Type.Object({
  user_id: Type.String(),
  sec_user_id: Type.String(),
  screen_name: Type.String(),
  name: Type.String(),
  avatar_url: Type.String(),
  mobile: Type.String({ description: 'masked, empty when none' }),
  email: Type.String({ description: 'masked, empty when none' }),
  username: Type.String(),
  has_password: Type.Boolean(),
  is_frozen: Type.Integer(),
  /** True when this sign-in created the account. */
  new_user: Type.Optional(Type.Boolean()),
  /** The active organisation identity (flows/identity-sign-in); absent for the personal identity. */
  org: Type.Optional(ActiveOrg),
  /** Set while a requested cancellation waits out its cooling-off period. */
  cancel_erase_at: Type.Optional(
    Type.Integer({ description: 'when the data is erased, ms since the epoch' }),
  ),
  session: Type.Object({
    created_at: Type.Integer({ description: 'ms since the epoch' }),
    expires_at: Type.Integer({ description: 'idle expiry, ms since the epoch' }),
  }),
});

/** The spec's need_plaintext (default false, `DEFAULTS.needPlaintext`), as the wire carries a boolean. */
const NeedPlaintext = Type.Optional(
  Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')], {
    description: 'true or 1: the account’s own mobile and e-mail unmasked; default false (masked)',
  }),
);

export const plaintextAsked = (value: string | undefined) => value === 'true' || value === '1';

export const accountInfoSchema = {
  summary:
    'The signed-in account (NOT_LOGGED_IN without a session); need_plaintext unmasks its own identifiers',
  tags: ['account'],
  querystring: Type.Object(
    { ...CommonQuery.properties, need_plaintext: NeedPlaintext },
    { additionalProperties: true },
  ),
  response: webResponses(AccountInfo),
};
