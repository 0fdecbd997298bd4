import { emailOf, mobileOf } from '../../domain/accounts/targets';
import type { Channel } from '../../domain/codes/codes';
import { PassportError } from '../../errors';
import { ticketForCode } from '../../flows/check-code';
import { REGISTER_PURPOSES, register, registerByEmailCode } from '../../flows/register';
import { safeRedirect } from '../../lib/redirect';
import { EmailCodeType, paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  emailRegisterSchema,
  emailRegisterV2Schema,
  emailRegisterVerifyLoginSchema,
  emailRegisterVerifySchema,
  mobileEmailRegisterSchema,
  mobileRegisterSchema,
  RegisteredData,
} from '../../schemas/register';
import { TicketData } from '../../schemas/verify';
import { flowRoute } from '../declare';

/**
 * Registration: by mobile (`/passport/mobile/register/`), by e-mail (`email/register`,
 * `email/register/v2`), the only-user variant (`/passport/mobile_email_register/`, or `only_user=1` on
 * any of the others), and the e-mail code steps `email/register_verify` (code → ticket) and
 * `email/register_verify_login` (code + password → account and session). The flows: flows/register.
 */

export const mobileRegister = flowRoute({
  method: 'POST',
  schema: mobileRegisterSchema,
  data: RegisteredData,
  at: [['web', paths.passport.mobileRegister]],
  run: (app, request, reply) =>
    register(app, request, reply, {
      channel: 'mobile',
      target: mobileOf(app, request.body.mobile),
      ticket: request.body.verify_ticket,
      password: request.body.password,
      onlyUser: request.body.only_user === 1,
    }),
});

export const mobileEmailRegister = flowRoute({
  method: 'POST',
  schema: mobileEmailRegisterSchema,
  data: RegisteredData,
  at: [['web', paths.passport.mobileEmailRegister]],
  run: (app, request, reply) => {
    const { mobile, email } = request.body;
    if ((mobile === undefined) === (email === undefined)) throw new PassportError('identifierRequired');
    const channel: Channel = mobile === undefined ? 'email' : 'mobile';
    return register(app, request, reply, {
      channel,
      target: mobile === undefined ? emailOf(email ?? '') : mobileOf(app, mobile),
      ticket: request.body.verify_ticket,
      password: request.body.password,
      onlyUser: true,
    });
  },
});

/**
 * `email/register` is the spec's "no-verify variant" (recaptcha_token, next_url). Registering an
 * address nobody has proven to own would let anyone squat others' addresses and would be an
 * enumeration oracle, so it takes a verify ticket like v2; the challenge will stand in front of it.
 */
export const emailRegister = flowRoute({
  method: 'POST',
  schema: emailRegisterSchema,
  data: RegisteredData,
  at: [['web', paths.web.emailRegister]],
  run: (app, request, reply) =>
    register(app, request, reply, {
      channel: 'email',
      target: emailOf(request.body.email),
      ticket: request.body.verify_ticket,
      password: request.body.password,
      onlyUser: request.body.only_user === 1,
      nextUrl: safeRedirect(request.body.next_url, app.config.publicOrigin, app.config.allowedOrigins),
    }),
});

export const emailRegisterV2 = flowRoute({
  method: 'POST',
  schema: emailRegisterV2Schema,
  data: RegisteredData,
  at: [['web', paths.web.emailRegisterV2]],
  run: (app, request, reply) =>
    register(app, request, reply, {
      channel: 'email',
      target: emailOf(request.body.email),
      ticket: request.body.verify_ticket,
      password: request.body.password,
      onlyUser: request.body.only_user === 1,
    }),
});

export const emailRegisterVerify = flowRoute({
  method: 'POST',
  schema: emailRegisterVerifySchema,
  data: TicketData,
  at: [['web', paths.web.emailRegisterVerify]],
  run: (app, request) =>
    ticketForCode(app, request, {
      channel: 'email',
      target: emailOf(request.body.email),
      purpose: request.body.type ?? EmailCodeType.register,
      code: request.body.code,
      allowed: REGISTER_PURPOSES.email,
    }),
});

export const emailRegisterVerifyLogin = flowRoute({
  method: 'POST',
  schema: emailRegisterVerifyLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.emailRegisterVerifyLogin]],
  run: (app, request, reply) =>
    registerByEmailCode(app, request, reply, {
      email: emailOf(request.body.email),
      type: request.body.type,
      code: request.body.code,
      password: request.body.password,
    }),
});
