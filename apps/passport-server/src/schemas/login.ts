import { Type } from 'typebox';
import { LIMITS } from '../protocol';
import { AccountInfo } from './account';
import { Code, CodeTypeField, CommonQuery, Email, Flag, FORM, MixMode, Mobile, webResponses } from './common';

export const SmsLoginBody = Type.Object(
  {
    mobile: Mobile,
    code: Code,
    type: Type.Optional(CodeTypeField),
    need_frozen_user: Flag,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

export const EmailCodeLoginBody = Type.Object(
  { email: Email, code: Code, type: Type.Optional(CodeTypeField), need_frozen_user: Flag, mix_mode: MixMode },
  { additionalProperties: true },
);

const Identifier = Type.Optional(Type.String({ minLength: 1, maxLength: 254 }));

export const PasswordLoginBody = Type.Object(
  {
    password: Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxBytes }),
    email: Identifier,
    username: Identifier,
    mobile: Identifier,
    account: Identifier,
    need_frozen_user: Flag,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

/** email/login: the password sign-in that names its account by e-mail only. */
export const EmailPasswordLoginBody = Type.Object(
  {
    email: Email,
    password: Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxBytes }),
    need_frozen_user: Flag,
    mix_mode: MixMode,
  },
  { additionalProperties: true },
);

const loginResponses = webResponses(AccountInfo);

export const smsLoginSchema = {
  summary: 'Sign in with an SMS code; registers the number when it has no account',
  tags: ['login'],
  consumes: FORM,
  querystring: CommonQuery,
  body: SmsLoginBody,
  response: loginResponses,
};

export const smsLoginOnlySchema = {
  summary: 'Sign in with an SMS code; only existing accounts (ACCOUNT_NOT_FOUND otherwise)',
  tags: ['login'],
  consumes: FORM,
  querystring: CommonQuery,
  body: SmsLoginBody,
  response: loginResponses,
};

export const emailCodeLoginSchema = {
  summary: 'Sign in with an e-mail code; registers the address when it has no account',
  tags: ['login'],
  consumes: FORM,
  querystring: CommonQuery,
  body: EmailCodeLoginBody,
  response: loginResponses,
};

export const emailPasswordLoginSchema = {
  summary: 'Sign in with an e-mail address and password',
  tags: ['login'],
  consumes: FORM,
  querystring: CommonQuery,
  body: EmailPasswordLoginBody,
  response: loginResponses,
};

export const passwordLoginSchema = {
  summary: 'Sign in with a password and one of email, username, mobile or account',
  tags: ['login'],
  consumes: FORM,
  querystring: CommonQuery,
  body: PasswordLoginBody,
  response: loginResponses,
};
