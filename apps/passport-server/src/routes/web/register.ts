import { Type } from 'typebox';
import { operationRoute } from '../../adapters/operation-route';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import type { Channel } from '../../domain/codes/codes';
import { PassportError } from '../../errors';
import { ticketForCode } from '../../flows/check-code';
import {
  answerRegistered,
  proveEmailCodeRegistration,
  proveRegistration,
  REGISTER_PURPOSES,
} from '../../flows/register';
import { proveRegisterLink, REGISTER_CONFIRM_PATH, sendRegisterLink } from '../../flows/register-link';
import { sendRegisterConfirmation } from '../../http/register-confirmation';
import { safeRedirect } from '../../lib/redirect';
import {
  registerByContact,
  registerByEmail,
  registerByEmailCode,
  registerByEmailLink,
  registerByEmailV2,
  registerByMobile,
} from '../../operations/sign-in/register';
import { EmailCodeType, paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  EmailRegisterBody,
  emailRegisterConfirmPageSchema,
  emailRegisterConfirmSchema,
  emailRegisterSchema,
  emailRegisterV2Schema,
  emailRegisterVerifyLoginSchema,
  emailRegisterVerifySchema,
  mobileEmailRegisterSchema,
  mobileRegisterSchema,
  RegisteredData,
  RegisterLinkSentData,
} from '../../schemas/register';
import { TicketData } from '../../schemas/verify';
import { flowRoute } from '../declare';

/**
 * Registration: by mobile (`/passport/mobile/register/`), by e-mail (`email/register`,
 * `email/register/v2`), the only-user variant (`/passport/mobile_email_register/`, or `only_user=1` on
 * any of the others), and the e-mail code steps `email/register_verify` (code → ticket) and
 * `email/register_verify_login` (code + password → account and session): the operations of
 * src/operations/sign-in/register.ts, proved and answered by src/flows/register.ts.
 */

export const mobileRegister = operationRoute(registerByMobile, {
  method: 'POST',
  schema: mobileRegisterSchema,
  data: RegisteredData,
  at: [['web', paths.passport.mobileRegister]],
  principal: (app, request, body) =>
    proveRegistration(app, request, {
      channel: 'mobile',
      target: mobileOf(app, body.mobile),
      ticket: body.verify_ticket,
      password: body.password,
      onlyUser: body.only_user === 1,
    }),
  after: (app, request, reply, done) => answerRegistered(app, request, reply, done),
});

export const mobileEmailRegister = operationRoute(registerByContact, {
  method: 'POST',
  schema: mobileEmailRegisterSchema,
  data: RegisteredData,
  at: [['web', paths.passport.mobileEmailRegister]],
  principal: (app, request, body) => {
    const { mobile, email } = body;
    if ((mobile === undefined) === (email === undefined)) throw new PassportError('identifierRequired');
    const channel: Channel = mobile === undefined ? 'email' : 'mobile';
    return proveRegistration(app, request, {
      channel,
      target: mobile === undefined ? emailOf(email ?? '') : mobileOf(app, mobile),
      ticket: body.verify_ticket,
      password: body.password,
      onlyUser: true,
    });
  },
  after: (app, request, reply, done) => answerRegistered(app, request, reply, done),
});

/** `email/register` with a verify ticket: the e-mail register of v2, with a password and `next_url`. */
const emailRegisterByTicket = operationRoute(registerByEmail, {
  method: 'POST',
  schema: emailRegisterSchema,
  data: RegisteredData,
  at: [['web', paths.web.emailRegister]],
  principal: (app, request, body) =>
    proveRegistration(app, request, {
      channel: 'email',
      target: emailOf(body.email),
      ticket: body.verify_ticket ?? '',
      password: body.password,
      onlyUser: body.only_user === 1,
    }),
  after: (app, request, reply, done) =>
    answerRegistered(
      app,
      request,
      reply,
      done,
      safeRedirect(request.body.next_url, app.config.publicOrigin, app.config.allowedOrigins),
    ),
});

/**
 * `email/register`: with a `verify_ticket`, registers at once; without one it is the spec's no-verify
 * variant (`recaptcha_token`, `next_url`): behind the human check, a link to the address makes the
 * account when followed (src/flows/register-link.ts), so the address is still proven.
 */
export const emailRegister = flowRoute({
  method: 'POST',
  schema: { ...emailRegisterSchema, body: EmailRegisterBody },
  data: Type.Union([RegisteredData, RegisterLinkSentData]),
  at: [['web', paths.web.emailRegister]],
  run: (app, request, reply) => {
    const { body } = request;
    if (body.verify_ticket !== undefined) return emailRegisterByTicket.run(app, request, reply);
    return sendRegisterLink(app, request, {
      email: emailOf(body.email),
      password: body.password,
      recaptchaToken: body.recaptcha_token,
      nextUrl: body.next_url,
    });
  },
});

/** The link's page: opening it changes nothing; its button posts the token to `emailRegisterConfirm`. */
export const emailRegisterConfirmPage = flowRoute({
  method: 'GET',
  schema: emailRegisterConfirmPageSchema,
  data: Type.Object({}),
  responses: { 200: Type.String({ description: 'the bilingual HTML page' }) },
  at: [['web', REGISTER_CONFIRM_PATH]],
  run: async (_app, request, reply) => {
    await sendRegisterConfirmation(request, reply, {
      action: REGISTER_CONFIRM_PATH,
      token: request.query.token,
    });
    return undefined;
  },
});

/** Where each confirmation goes, from its link's record to its answer. */
const nextUrlOf = new WeakMap<object, string>();

export const emailRegisterConfirm = operationRoute(registerByEmailLink, {
  method: 'POST',
  schema: emailRegisterConfirmSchema,
  data: RegisteredData,
  at: [['web', REGISTER_CONFIRM_PATH]],
  principal: async (app, request, body) => {
    const { principal, nextUrl } = await proveRegisterLink(app, request, body.token);
    nextUrlOf.set(request, nextUrl);
    return principal;
  },
  after: (app, request, reply, done) => answerRegistered(app, request, reply, done, nextUrlOf.get(request)),
});

export const emailRegisterV2 = operationRoute(registerByEmailV2, {
  method: 'POST',
  schema: emailRegisterV2Schema,
  data: RegisteredData,
  at: [['web', paths.web.emailRegisterV2]],
  principal: (app, request, body) =>
    proveRegistration(app, request, {
      channel: 'email',
      target: emailOf(body.email),
      ticket: body.verify_ticket,
      password: body.password,
      onlyUser: body.only_user === 1,
    }),
  after: (app, request, reply, done) => answerRegistered(app, request, reply, done),
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

export const emailRegisterVerifyLogin = operationRoute(registerByEmailCode, {
  method: 'POST',
  schema: emailRegisterVerifyLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.emailRegisterVerifyLogin]],
  principal: (app, request, body) =>
    proveEmailCodeRegistration(app, request, {
      email: emailOf(body.email),
      type: body.type,
      code: body.code,
      password: body.password,
    }),
  after: (app, request, reply, done) => answerRegistered(app, request, reply, done),
});
