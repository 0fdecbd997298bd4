import { type TSchema, Type } from 'typebox';
import { LIMITS } from '../protocol';
import { AccountInfo } from './account';
import { Code, CodeTypeField, CommonQuery, Email, FORM, MixMode, Mobile, webResponses } from './common';
import { NewPassword } from './register';
import { Ticket } from './verify';

/** A password the account already has: only the 1 KiB cap, never the rules for new ones. */
const CurrentPassword = Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxBytes });
const Purpose = Type.Optional(CodeTypeField);

export const MobileResetBody = Type.Object(
  { mobile: Mobile, code: Code, password: NewPassword, type: Purpose, mix_mode: MixMode },
  { additionalProperties: true },
);
export const EmailResetBody = Type.Object(
  { email: Email, code: Code, password: NewPassword, type: Purpose, mix_mode: MixMode },
  { additionalProperties: true },
);
/** The legacy and mobile families' reset: one of mobile or e-mail (mobile when both are sent). */
export const CodeResetBody = Type.Object(
  {
    mobile: Type.Optional(Mobile),
    email: Type.Optional(Email),
    code: Code,
    password: NewPassword,
    type: Purpose,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);
export const TicketResetBody = Type.Object(
  { ticket: Ticket, password: NewPassword, mix_mode: MixMode },
  { additionalProperties: true },
);
export const ChangeBody = Type.Object(
  {
    code: Type.Optional(Code),
    ticket: Type.Optional(Ticket),
    password: NewPassword,
    type: Purpose,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);
export const UpdateBody = Type.Object(
  { password: NewPassword, current_password: CurrentPassword, mix_mode: MixMode },
  { additionalProperties: true },
);
export const SetBody = Type.Object(
  { password: NewPassword, mix_mode: MixMode },
  { additionalProperties: true },
);
export const HasSetBody = Type.Object({ mix_mode: MixMode }, { additionalProperties: true });

export const PasswordChanged = Type.Object({
  user_id: Type.String(),
  signed_in: Type.Boolean({ description: 'whether this browser holds a (new) session afterwards' }),
});
export const HasSetData = Type.Object({ has_set: Type.Boolean() });

const route = <B extends TSchema, D extends TSchema>(summary: string, body: B, data: D) => ({
  summary,
  tags: ['password'],
  consumes: FORM,
  querystring: CommonQuery,
  body,
  response: webResponses(data),
});

const RESET = 'kills every session of the account';

export const passwordResetSchema = route(
  `Reset a forgotten password with a mobile number and an SMS reset code; ${RESET}`,
  MobileResetBody,
  PasswordChanged,
);
export const emailPasswordResetSchema = route(
  `Reset a forgotten password with an e-mail address and a reset code; ${RESET}`,
  EmailResetBody,
  PasswordChanged,
);
export const passwordResetByTicketSchema = route(
  `Reset a password with the verify ticket of an SMS reset code; ${RESET}`,
  TicketResetBody,
  PasswordChanged,
);
export const passwordResetByEmailTicketSchema = route(
  `Reset a password with the verify ticket of an e-mail reset code; ${RESET}`,
  TicketResetBody,
  PasswordChanged,
);
export const passwordChangeSchema = route(
  "Signed in: change the password with a code (or its ticket) sent to the account's mobile; other sessions die, this one is renewed",
  ChangeBody,
  PasswordChanged,
);
export const emailChangePasswordSchema = route(
  "Signed in: change the password with a code (or its ticket) sent to the account's e-mail; other sessions die, this one is renewed",
  ChangeBody,
  PasswordChanged,
);
export const passwordUpdateSchema = route(
  'Signed in: change the password, proving the current one (a wrong one counts as a failure); other sessions die, this one is renewed',
  UpdateBody,
  PasswordChanged,
);
export const passwordSetSchema = route(
  'Signed in: set a first password (PASSWORD_ALREADY_SET when one exists)',
  SetBody,
  PasswordChanged,
);
export const emailPasswordResetAndLoginSchema = route(
  `Reset a forgotten password with an e-mail reset code and sign in; ${RESET} and starts a new one here`,
  EmailResetBody,
  AccountInfo,
);

export const passwordHasSetSchema = {
  summary: 'Signed in: whether the account has a password',
  tags: ['password'],
  querystring: CommonQuery,
  response: webResponses(HasSetData),
};
export const passwordHasSetPostSchema = { ...passwordHasSetSchema, consumes: FORM, body: HasSetBody };
