import { type TSchema, Type } from 'typebox';
import type { OpenedSignIn } from '../../domain/sessions/browser';
import {
  EmailRegisterBody,
  EmailRegisterV2Body,
  EmailRegisterVerifyLoginBody,
  MobileEmailRegisterBody,
  MobileRegisterBody,
} from '../../schemas/register';
import { caller, defineOperation } from '../define';
import { signInWithin } from './sign-in';

/**
 * Registration (src/flows/register.ts proves it before the operation): the new password checked
 * against the rules, the verify ticket or the code spent, the slow hash, the account made — outside a
 * transaction, because the account guards (the waitlist) read the app's handle and a concurrent
 * registration's unique violation would abort a PostgreSQL transaction. The operation signs the new
 * account in, or answers it alone (`only_user`: the adapter proved it without a sign-in).
 */

/** The new account signed in, or only registered; never on the wire as it is. */
export const Registered = Type.Unsafe<
  { signedIn: OpenedSignIn & { newUser: boolean } } | { registered: { userId: string } }
>({ description: 'the sign-in the adapter hands to the browser, or the account only (never on the wire)' });

const registration = <I extends TSchema>(name: string, input: I) =>
  defineOperation({
    name,
    input,
    output: Registered,
    caller: caller.person,
    emits: ['account.signed_in'],
    run: async (ctx) =>
      ctx.caller.signIn
        ? { signedIn: await signInWithin(ctx) }
        : { registered: { userId: ctx.caller.user.id } },
  });

/** /passport/mobile/register/: a mobile number with the ticket of a register code. */
export const registerByMobile = registration('account.register.mobile', MobileRegisterBody);

/** /passport/mobile_email_register/: a mobile number or an e-mail address, never signed in. */
export const registerByContact = registration('account.register.contact', MobileEmailRegisterBody);

/** email/register: an e-mail address with a ticket and a password; the checked next_url answered. */
export const registerByEmail = registration('account.register.email', EmailRegisterBody);

/** email/register/v2: an e-mail address with the ticket of a register code. */
export const registerByEmailV2 = registration('account.register.email_v2', EmailRegisterV2Body);

/** email/register_verify_login: an e-mail code and a password; an existing account signs in. */
export const registerByEmailCode = registration('account.register.email_code', EmailRegisterVerifyLoginBody);
