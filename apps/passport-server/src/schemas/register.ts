import { type TSchema, Type } from 'typebox';
import { LIMITS } from '../protocol';
import { AccountInfo } from './account';
import { Code, CodeTypeField, CommonQuery, Email, Flag, FORM, MixMode, Mobile, webResponses } from './common';
import { Ticket, TicketData } from './verify';

/** A new password: checked against the length rule, the blocklist and context words (1 KiB cap). */
export const NewPassword = Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxBytes });

const OnlyUser = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: 1,
    description: '1: create the account without signing in (the only-user variant)',
  }),
);

export const MobileRegisterBody = Type.Object(
  {
    mobile: Mobile,
    verify_ticket: Ticket,
    password: Type.Optional(NewPassword),
    only_user: OnlyUser,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const EmailRegisterBody = Type.Object(
  {
    email: Email,
    verify_ticket: Type.Optional(Ticket),
    password: NewPassword,
    recaptcha_token: Type.Optional(
      Type.String({
        maxLength: 4096,
        description:
          'without verify_ticket: the human check, a token of the configured provider or a pass of our challenge',
      }),
    ),
    next_url: Type.Optional(
      Type.String({ maxLength: 2048, description: 'same-origin or allow-listed only' }),
    ),
    only_user: OnlyUser,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const EmailRegisterV2Body = Type.Object(
  {
    email: Email,
    verify_ticket: Ticket,
    password: Type.Optional(NewPassword),
    only_user: OnlyUser,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const MobileEmailRegisterBody = Type.Object(
  {
    mobile: Type.Optional(Mobile),
    email: Type.Optional(Email),
    verify_ticket: Ticket,
    password: Type.Optional(NewPassword),
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const EmailRegisterVerifyBody = Type.Object(
  { email: Email, code: Code, type: Type.Optional(CodeTypeField), mix_mode: MixMode },
  { additionalProperties: true },
);

export const EmailRegisterVerifyLoginBody = Type.Object(
  {
    email: Email,
    code: Code,
    password: NewPassword,
    type: Type.Optional(CodeTypeField),
    need_frozen_user: Flag,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

/** The only-user variant answers the new account's id and no session. */
export const OnlyUserData = Type.Object({
  user_id: Type.String(),
  new_user: Type.Literal(true),
  signed_in: Type.Literal(false),
});

/** The no-verify variant's answer: a link went to the address; nothing is made until it is followed. */
export const RegisterLinkSentData = Type.Object({
  link_sent: Type.Literal(true),
  expires_in: Type.Integer({ description: 'seconds the link stays usable' }),
});

/** The link's token, as the confirmation page posts it. */
export const EmailRegisterConfirmBody = Type.Object(
  { token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) },
  { additionalProperties: true },
);

export const RegisteredData = Type.Union([
  Type.Intersect([AccountInfo, Type.Object({ next_url: Type.Optional(Type.String()) })]),
  OnlyUserData,
]);

const register = <B extends TSchema>(summary: string, body: B) => ({
  summary,
  tags: ['register'],
  consumes: FORM,
  querystring: CommonQuery,
  body,
  response: webResponses(RegisteredData),
});

export const mobileRegisterSchema = register(
  'Register a mobile number with the verify ticket of a register code; signs in (only_user=1: does not)',
  MobileRegisterBody,
);
export const emailRegisterSchema = {
  ...register(
    'Register an e-mail address and a password: with a verify ticket, signs in and answers the checked next_url; without one (the no-verify variant, behind recaptcha_token), e-mails a link that does',
    EmailRegisterBody,
  ),
  response: webResponses(Type.Union([RegisteredData, RegisterLinkSentData])),
};
export const emailRegisterConfirmSchema = register(
  'Follow the no-verify registration link: makes the account, signs in and answers the checked next_url',
  EmailRegisterConfirmBody,
);
export const emailRegisterConfirmPageSchema = {
  summary:
    'The page the no-verify registration link opens: a button that posts the link on (a GET changes nothing)',
  tags: ['register'],
  querystring: Type.Object({ token: Type.String({ maxLength: 64 }) }, { additionalProperties: true }),
};
export const emailRegisterV2Schema = register(
  'Register an e-mail address with the verify ticket of a register code; signs in (only_user=1: does not)',
  EmailRegisterV2Body,
);
export const mobileEmailRegisterSchema = register(
  'The only-user variant: register a mobile number or an e-mail address with a verify ticket, without signing in',
  MobileEmailRegisterBody,
);

export const emailRegisterVerifySchema = {
  summary: 'Check an e-mail register code (type 1): answers the verify ticket to register with',
  tags: ['register'],
  consumes: FORM,
  querystring: CommonQuery,
  body: EmailRegisterVerifyBody,
  response: webResponses(TicketData),
};

export const emailRegisterVerifyLoginSchema = {
  summary:
    'Register an e-mail address with its code and a password, and sign in, in one step (an existing account is signed in, its password untouched)',
  tags: ['register'],
  consumes: FORM,
  querystring: CommonQuery,
  body: EmailRegisterVerifyLoginBody,
  response: webResponses(AccountInfo),
};

export const RegisteredAnswer = Type.Object({ is_registered: Type.Boolean() });

export const checkMobileRegisteredSchema = {
  summary:
    'Whether a mobile number has an account (strict per-address limit: an enumeration oracle by design)',
  tags: ['register'],
  consumes: FORM,
  querystring: CommonQuery,
  body: Type.Object({ mobile: Mobile, mix_mode: MixMode }, { additionalProperties: true }),
  response: webResponses(RegisteredAnswer),
};

export const checkEmailRegisteredSchema = {
  summary:
    'Whether an e-mail address has an account (strict per-address limit: an enumeration oracle by design)',
  tags: ['register'],
  consumes: FORM,
  querystring: CommonQuery,
  body: Type.Object({ email: Email, mix_mode: MixMode }, { additionalProperties: true }),
  response: webResponses(RegisteredAnswer),
};
