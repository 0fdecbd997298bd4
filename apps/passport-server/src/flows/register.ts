import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Principal } from '../adapters/invoke';
import { newUserRow } from '../domain/accounts/accounts';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
import { policy } from '../domain/passwords/new-password';
import { PassportError } from '../errors';
import type { Registered } from '../operations/sign-in/register';
import { CodeType, EmailCodeType } from '../protocol';
import { admitSignIn, answerSignIn } from './complete-sign-in';

/** The code purposes a registration ticket may come from, per channel (spec §7: register is type 1). */
export const REGISTER_PURPOSES: Record<Channel, ReadonlySet<number>> = {
  mobile: new Set([CodeType.register, CodeType.mobileRegister]),
  email: new Set([EmailCodeType.register]),
};

export interface Registration {
  channel: Channel;
  target: string;
  ticket: string;
  password: string | undefined;
  /** Create the account without signing in. */
  onlyUser: boolean;
}

/** A new password checked against the rules, or undefined when the flow took none. */
function newPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  password: string | undefined,
  identifiers: string[],
) {
  return password === undefined ? undefined : policy(app, request, password, identifiers);
}

/**
 * Proves a registration with a verify ticket, before its operation (src/operations/sign-in/register.ts).
 * The password is checked before the ticket is used, so a refused password does not cost the user
 * their verification; the slow hash comes after the ticket, so a request without one costs no hash.
 * ACCOUNT_EXISTS is only ever answered after a valid ticket for that very identifier has been used:
 * without proof of owning the mobile or e-mail, registration tells nobody whether it has an account. A
 * new account signs in (its first device is remembered) unless only the account was asked for.
 */
export async function proveRegistration(
  app: FastifyInstance,
  request: FastifyRequest,
  r: Registration,
): Promise<Principal> {
  const password = await newPassword(app, request, r.password, [r.target]);
  await app.tickets.consume({
    ticket: r.ticket,
    purposes: REGISTER_PURPOSES[r.channel],
    channel: r.channel,
    target: r.target,
  });
  const hash = password === undefined ? null : await app.passwords.hash(password);
  const user = newUserRow(app.runtime.now(), { [r.channel]: r.target, password_hash: hash });
  if (r.onlyUser) return { kind: 'person', user, newAccount: true };
  // The ticket came from a code sent to the channel: that code is the sign-in's proof.
  const proof = r.channel === 'mobile' ? 'mobileCode' : 'emailCode';
  return newAccount(await admitSignIn(app, request, user, { newUser: true, proof }));
}

/** The admitted sign-in of an account the registration operation stores first. */
function newAccount(principal: Principal): Principal {
  if (principal.kind !== 'person') throw new Error('a registration admits a person');
  return { ...principal, newAccount: true };
}

/**
 * A registration's answer once committed: the account signed in (its cookies set; with the checked
 * `next_url` of e-mail register v1), or the new account's id alone.
 */
export async function answerRegistered(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  { output }: { output: Static<typeof Registered> },
  nextUrl?: string,
) {
  if ('registered' in output)
    return { user_id: output.registered.userId, new_user: true as const, signed_in: false as const };
  const account = await answerSignIn(app, request, reply, { output: output.signedIn });
  return { ...account, ...(nextUrl === undefined ? {} : { next_url: nextUrl }) };
}

/**
 * `email/register_verify_login`, before its operation: the code proves the address, as e-mail code
 * login does. An address that has an account is signed in (its password left as it is; an unknown
 * device needs the second verification), a new one is registered with the password.
 */
export async function proveEmailCodeRegistration(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { email: string; type: number | undefined; code: string; password: string },
): Promise<Principal> {
  const { email } = input;
  const purpose = input.type ?? EmailCodeType.register;
  if (!REGISTER_PURPOSES.email.has(purpose)) throw new PassportError('codeTypeInvalid');
  const password = await policy(app, request, input.password, [email]);
  await app.codes.verify({
    channel: 'email',
    target: email,
    purpose,
    code: input.code,
    lane: await codeLaneOf(app, request, 'email', email),
  });
  const existing = await app.accounts.find({ kind: 'email', value: email });
  if (existing) return admitSignIn(app, request, existing, { newUser: false, proof: 'emailCode' });
  const user = newUserRow(app.runtime.now(), { email, password_hash: await app.passwords.hash(password) });
  return newAccount(await admitSignIn(app, request, user, { newUser: true, proof: 'emailCode' }));
}
