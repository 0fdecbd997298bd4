import { type TSchema, Type } from 'typebox';
import type { OpenedSignIn } from '../../domain/sessions/browser';
import { PassportError } from '../../errors';
import {
  EmailRegisterBody,
  EmailRegisterConfirmBody,
  EmailRegisterV2Body,
  EmailRegisterVerifyLoginBody,
  MobileEmailRegisterBody,
  MobileRegisterBody,
} from '../../schemas/register';
import { caller, defineOperation } from '../define';
import { signInWithin } from './sign-in';

/**
 * Registration (src/flows/register.ts proves it before the operation): the new password checked
 * against the rules, the verify ticket or the code spent and the slow hash, outside the transaction;
 * the new account's row made there. The operation stores it through the transaction after the account
 * guards (the waitlist's admission is used up with it, or not at all), then signs it in, or answers it
 * alone (`only_user`: the adapter proved it without a sign-in). An account that has the mobile or
 * e-mail already (a concurrent registration included) is ACCOUNT_EXISTS, answered only after the ticket
 * or code for that very identifier was spent.
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
    async run(ctx) {
      if (ctx.caller.newAccount && !(await ctx.accounts.insert(ctx.caller.user)))
        throw new PassportError('accountExists');
      return ctx.caller.signIn
        ? { signedIn: await signInWithin(ctx) }
        : { registered: { userId: ctx.caller.user.id } };
    },
  });

/** /passport/mobile/register/: a mobile number with the ticket of a register code. */
export const registerByMobile = registration('account.register.mobile', MobileRegisterBody);

/** /passport/mobile_email_register/: a mobile number or an e-mail address, never signed in. */
export const registerByContact = registration('account.register.contact', MobileEmailRegisterBody);

/** email/register: an e-mail address with a ticket and a password; the checked next_url answered. */
export const registerByEmail = registration('account.register.email', EmailRegisterBody);

/** email/register/confirm: the no-verify variant's link followed (src/flows/register-link.ts). */
export const registerByEmailLink = registration('account.register.email_link', EmailRegisterConfirmBody);

/** email/register/v2: an e-mail address with the ticket of a register code. */
export const registerByEmailV2 = registration('account.register.email_v2', EmailRegisterV2Body);

/** email/register_verify_login: an e-mail code and a password; an existing account signs in. */
export const registerByEmailCode = registration('account.register.email_code', EmailRegisterVerifyLoginBody);
