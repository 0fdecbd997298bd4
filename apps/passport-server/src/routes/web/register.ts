import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountInfo } from '../../domain/accounts/account-info';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import type { Channel } from '../../domain/codes/codes';
import { assertNewPassword } from '../../domain/passwords/policy';
import { PassportError } from '../../errors';
import { completeSignIn } from '../../flows/second-verify';
import { safeRedirect } from '../../lib/redirect';
import { CodeType, EmailCodeType, paths, webSuccess } from '../../protocol';
import {
  emailRegisterSchema,
  emailRegisterV2Schema,
  emailRegisterVerifyLoginSchema,
  emailRegisterVerifySchema,
  mobileEmailRegisterSchema,
  mobileRegisterSchema,
} from '../../schemas/register';
import { ticketForCode } from './verify';

/** The code purposes a registration ticket may come from, per channel (spec §7: register is type 1). */
export const REGISTER_PURPOSES: Record<Channel, ReadonlySet<number>> = {
  mobile: new Set([CodeType.register, CodeType.mobileRegister]),
  email: new Set([EmailCodeType.register]),
};

interface Registration {
  channel: Channel;
  target: string;
  ticket: string;
  password: string | undefined;
  /** Create the account without signing in. */
  onlyUser: boolean;
  /** A checked redirect target to answer with (e-mail register v1). */
  nextUrl?: string;
}

/** A new password checked against the rules, or undefined when the flow took none. */
function newPassword(app: FastifyInstance, password: string | undefined, identifiers: string[]) {
  return password === undefined
    ? undefined
    : assertNewPassword(password, { appName: app.config.appName, identifiers });
}

/**
 * Registers with a verify ticket. The password is checked before the ticket is used, so a refused
 * password does not cost the user their verification. ACCOUNT_EXISTS is only ever answered after a
 * valid ticket for that very identifier has been used: without proof of owning the mobile or e-mail,
 * registration tells nobody whether it has an account.
 */
async function register(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, r: Registration) {
  const password = newPassword(app, r.password, [r.target]);
  await app.tickets.consume({
    ticket: r.ticket,
    purposes: REGISTER_PURPOSES[r.channel],
    channel: r.channel,
    target: r.target,
  });
  const hash = password === undefined ? null : await app.passwords.hash(password);
  const user = await app.accounts.create({ kind: r.channel, value: r.target }, hash);
  if (!user) throw new PassportError('accountExists');
  if (r.onlyUser) return webSuccess({ user_id: user.id, new_user: true as const, signed_in: false as const });
  // A sign-in: the browser's old session (if any) dies and a new token is set; the account's first
  // device is remembered without a second verification.
  const session = await app.sessions.signIn(request, reply, user.id);
  await app.devices.remember(user.id, request);
  return webSuccess({
    ...accountInfo(session, { newUser: true }),
    ...(r.nextUrl === undefined ? {} : { next_url: r.nextUrl }),
  });
}

/**
 * Registration: by mobile (`/passport/mobile/register/`), by e-mail (`email/register`,
 * `email/register/v2`), the only-user variant (`/passport/mobile_email_register/`, or `only_user=1` on
 * any of the others), and the e-mail code steps `email/register_verify` (code → ticket) and
 * `email/register_verify_login` (code + password → account and session).
 */
const registration: FastifyPluginAsyncTypebox = async (app) => {
  app.post(paths.passport.mobileRegister, { schema: mobileRegisterSchema }, async (request, reply) =>
    register(app, request, reply, {
      channel: 'mobile',
      target: mobileOf(app, request.body.mobile),
      ticket: request.body.verify_ticket,
      password: request.body.password,
      onlyUser: request.body.only_user === 1,
    }),
  );

  app.post(
    paths.passport.mobileEmailRegister,
    { schema: mobileEmailRegisterSchema },
    async (request, reply) => {
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
  );

  // `email/register` is the spec's "no-verify variant" (recaptcha_token, next_url). Registering an
  // address nobody has proven to own would let anyone squat others' addresses and would be an
  // enumeration oracle, so it takes a verify ticket like v2; the challenge will stand in front of it.
  app.post(paths.web.emailRegister, { schema: emailRegisterSchema }, async (request, reply) =>
    register(app, request, reply, {
      channel: 'email',
      target: emailOf(request.body.email),
      ticket: request.body.verify_ticket,
      password: request.body.password,
      onlyUser: request.body.only_user === 1,
      nextUrl: safeRedirect(request.body.next_url, app.config.publicOrigin, app.config.allowedOrigins),
    }),
  );

  app.post(paths.web.emailRegisterV2, { schema: emailRegisterV2Schema }, async (request, reply) =>
    register(app, request, reply, {
      channel: 'email',
      target: emailOf(request.body.email),
      ticket: request.body.verify_ticket,
      password: request.body.password,
      onlyUser: request.body.only_user === 1,
    }),
  );

  app.post(paths.web.emailRegisterVerify, { schema: emailRegisterVerifySchema }, async (request) =>
    ticketForCode(app, request, {
      channel: 'email',
      target: emailOf(request.body.email),
      purpose: request.body.type ?? EmailCodeType.register,
      code: request.body.code,
      allowed: REGISTER_PURPOSES.email,
    }),
  );

  // The code proves the address, as e-mail code login does: an address that has an account is signed
  // in (its password left as it is), a new one is registered with the password.
  app.post(
    paths.web.emailRegisterVerifyLogin,
    { schema: emailRegisterVerifyLoginSchema },
    async (request, reply) => {
      const email = emailOf(request.body.email);
      const purpose = request.body.type ?? EmailCodeType.register;
      if (!REGISTER_PURPOSES.email.has(purpose)) throw new PassportError('codeTypeInvalid');
      const password = assertNewPassword(request.body.password, {
        appName: app.config.appName,
        identifiers: [email],
      });
      await app.codes.verify({ channel: 'email', target: email, purpose, code: request.body.code });
      const identifier = { kind: 'email', value: email } as const;
      let user = await app.accounts.find(identifier);
      let created = false;
      if (!user) {
        user = (await app.accounts.create(identifier, await app.passwords.hash(password))) ?? undefined;
        created = user !== undefined;
        // A concurrent registration of the same address won: sign in the account it made.
        user ??= await app.accounts.find(identifier);
        if (!user) throw new PassportError('accountNotFound');
      }
      // An existing account signed in by an e-mail code: an unknown device needs the second verification.
      return webSuccess(
        await completeSignIn(app, request, reply, user, { newUser: created, proof: 'emailCode' }),
      );
    },
  );
};

export default registration;
