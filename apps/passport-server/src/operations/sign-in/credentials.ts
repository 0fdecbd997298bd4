import type { TSchema } from 'typebox';
import {
  EmailCodeLoginBody,
  EmailPasswordLoginBody,
  PasswordLoginBody,
  SmsLoginBody,
} from '../../schemas/login';
import { QrTokenBody } from '../../schemas/qr';
import { SmsLoginContinueBody } from '../../schemas/second-verify';
import { caller, defineOperation } from '../define';
import { SignedIn, signInWithin } from './sign-in';

/**
 * The sign-ins by a credential the adapter checks before the operation, outside its transaction
 * (src/flows/password-sign-in.ts, code-sign-in.ts): the password's slow hash, the code and its lane,
 * the risk rules, the failure counters and second verification all read the request or must not hold
 * the transaction (nor SQLite's one connection). The operation signs the proven person in
 * (src/operations/sign-in/sign-in.ts). One operation per wire input, each the body its routes take.
 */
const credentialSignIn = <I extends TSchema>(name: string, input: I) =>
  defineOperation({
    name,
    input,
    output: SignedIn,
    caller: caller.person,
    emits: ['account.signed_in'],
    run: (ctx) => signInWithin(ctx),
  });

/** user/login and its family rows: a password and one of email, username, mobile or account. */
export const signInByPassword = credentialSignIn('account.sign_in.password', PasswordLoginBody);

/** email/login: a password and an e-mail address. */
export const signInByEmailPassword = credentialSignIn(
  'account.sign_in.email_password',
  EmailPasswordLoginBody,
);

/** sms_login, sms_login_only: an SMS code to the mobile (sms_login registers a new number first). */
export const signInByMobileCode = credentialSignIn('account.sign_in.mobile_code', SmsLoginBody);

/** email/code_login: an e-mail code (registers a new address first). */
export const signInByEmailCode = credentialSignIn('account.sign_in.email_code', EmailCodeLoginBody);

/** sms_login_continue: the SMS code of a sign-in that answered SECOND_VERIFY; remembers the device. */
export const signInBySecondVerify = credentialSignIn('account.sign_in.second_verify', SmsLoginContinueBody);

/** web_login: the browser that created a QR code redeems it once a signed-in phone confirmed it. */
export const signInByQr = credentialSignIn('account.sign_in.qr', QrTokenBody);
