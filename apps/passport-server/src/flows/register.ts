import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
import { policy } from '../domain/passwords/new-password';
import { PassportError } from '../errors';
import { CodeType, EmailCodeType } from '../protocol';
import { completeSignIn } from './complete-sign-in';

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
  /** A checked redirect target to answer with (e-mail register v1). */
  nextUrl?: string | undefined;
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
 * Registers with a verify ticket. The password is checked before the ticket is used, so a refused
 * password does not cost the user their verification. ACCOUNT_EXISTS is only ever answered after a
 * valid ticket for that very identifier has been used: without proof of owning the mobile or e-mail,
 * registration tells nobody whether it has an account. A new account signs in directly (its first
 * device is remembered) unless only the account was asked for.
 */
export async function register(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  r: Registration,
) {
  const password = await newPassword(app, request, r.password, [r.target]);
  await app.tickets.consume({
    ticket: r.ticket,
    purposes: REGISTER_PURPOSES[r.channel],
    channel: r.channel,
    target: r.target,
  });
  const hash = password === undefined ? null : await app.passwords.hash(password);
  const user = await app.accounts.create({ kind: r.channel, value: r.target }, hash);
  if (!user) throw new PassportError('accountExists');
  if (r.onlyUser) return { user_id: user.id, new_user: true as const, signed_in: false as const };
  // The ticket came from a code sent to the channel: that code is the sign-in's proof.
  const proof = r.channel === 'mobile' ? 'mobileCode' : 'emailCode';
  const account = await completeSignIn(app, request, reply, user, { newUser: true, proof });
  return { ...account, ...(r.nextUrl === undefined ? {} : { next_url: r.nextUrl }) };
}

/**
 * `email/register_verify_login`: the code proves the address, as e-mail code login does. An address
 * that has an account is signed in (its password left as it is; an unknown device needs the second
 * verification), a new one is registered with the password.
 */
export async function registerByEmailCode(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { email: string; type: number | undefined; code: string; password: string },
) {
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
  return completeSignIn(app, request, reply, user, { newUser: created, proof: 'emailCode' });
}
