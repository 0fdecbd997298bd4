import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../adapters/invoke';
import { registerLinkMail } from '../delivery/templates';
import { newUserRow } from '../domain/accounts/accounts';
import { policy } from '../domain/passwords/new-password';
import { PassportError } from '../errors';
import { hmac, randomToken, sha256 } from '../lib/crypto';
import { languageOf } from '../lib/language';
import { safeRedirect } from '../lib/redirect';
import { EmailCodeType } from '../protocol';
import { admitSignIn } from './complete-sign-in';

/**
 * The no-verify e-mail registration (`email/register` without a `verify_ticket`): the person gives an
 * address and a password behind a human check, and the address is proven by a link instead of a code
 * typed back. Nothing is made until the link is followed, so nobody can hold an address they do not
 * read (no squatting, no pre-made account waiting for its owner), and the request answers the same
 * whether or not the address has an account (the link's page says so, to the address's owner only).
 *
 * The link works only in the browser that asked for it. The password is the asker's: a link followed
 * elsewhere would let someone register another person's address with a password they chose, and that
 * person, pressing "create account" in their own mail, would hand them the account. Bound to the
 * asker's browser, only someone who both asked and reads the mailbox can finish.
 */

/**
 * Where the link leads: the server's own page and its POST. Not an SDK path: no app calls it, the page
 * the link opens does.
 */
export const REGISTER_CONFIRM_PATH = '/passport/web/email/register/confirm/';

interface PendingRegistration {
  email: string;
  passwordHash: string;
  nextUrl: string;
  /** The asking browser, keyed (holderOf). */
  holder: string;
}

/** The browser a request comes from: its session or pre-session id (the CSRF binding), keyed. */
function holderOf(app: FastifyInstance, request: FastifyRequest): string | null {
  if (request.session) return hmac(app.secret, `rl|s|${request.session.id}`);
  return request.preSessionId ? hmac(app.secret, `rl|p|${request.preSessionId}`) : null;
}

const keyOf = (token: string) => `register:link:${sha256(token)}`;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks the human-check token (the configured provider's, or our challenge's pass for this route);
 * without one that holds, CHALLENGE_REQUIRED names a challenge whose pass the SDK resends as
 * `challenge_pass`, which the risk rule's field reads too.
 */
async function assertHuman(app: FastifyInstance, request: FastifyRequest, token: string | undefined) {
  const action = app.risk.actionOf(request);
  const binding = app.challenge.bindingOf(request);
  const pass = (request.body as Record<string, unknown>)?.challenge_pass;
  // A pass is a short token: anything longer is no pass, and nothing of it leaves for the provider.
  for (const candidate of [token, typeof pass === 'string' && pass.length <= 128 ? pass : undefined]) {
    if (candidate && (await app.challenge.provesHuman(candidate, action, binding, request.ip))) return;
  }
  throw new PassportError('challengeRequired', await app.challenge.demand(action));
}

/** Sends the link; answers how long it lives. */
export async function sendRegisterLink(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { email: string; password: string; recaptchaToken: string | undefined; nextUrl: string | undefined },
): Promise<{ link_sent: true; expires_in: number }> {
  await assertHuman(app, request, input.recaptchaToken);
  // The CSRF check before this route gives every browser that gets here a pre-session or a session.
  const holder = holderOf(app, request);
  if (holder === null) throw new PassportError('ticketInvalid');
  const password = await policy(app, request, input.password, [input.email]);
  const nextUrl = safeRedirect(input.nextUrl, app.config.publicOrigin, app.config.allowedOrigins);
  // The strangers' lane of the address's codes: links and register codes share one cooldown and count.
  const admission = await app.gate.admitCode({
    channel: 'email',
    key: input.email,
    purpose: EmailCodeType.register,
    stranger: true,
    ip: request.ip,
  });
  const ttlMs = app.runtime.limits.codeTtlMs;
  const token = randomToken(32);
  const pending: PendingRegistration = {
    email: input.email,
    passwordHash: await app.passwords.hash(password),
    nextUrl,
    holder,
  };
  await app.store.set(keyOf(token), JSON.stringify(pending), ttlMs);
  const link = `${app.config.publicOrigin}${REGISTER_CONFIRM_PATH}?token=${token}`;
  try {
    await app.gate.deliver(admission, {
      channel: 'email',
      message: registerLinkMail(
        input.email,
        link,
        Math.round(ttlMs / 60_000),
        app.config.appName,
        languageOf(request),
      ),
    });
  } catch (error) {
    await app.store.delete(keyOf(token));
    throw error;
  }
  return { link_sent: true, expires_in: Math.round(ttlMs / 1000) };
}

/**
 * Takes the link's registration once (a second use, a token that never was, or another browser than the
 * one that asked: TICKET_INVALID; another browser does not use the link up) and
 * proves the new account's sign-in: the link came by e-mail to the address, the proof of an e-mail code.
 * An address that has an account meanwhile is ACCOUNT_EXISTS from the operation: only the address's
 * owner, who followed the link, learns it.
 */
export async function proveRegisterLink(
  app: FastifyInstance,
  request: FastifyRequest,
  token: string,
): Promise<{ principal: Principal; nextUrl: string }> {
  const seen = TOKEN_PATTERN.test(token) ? await app.store.get(keyOf(token)) : null;
  const holder = holderOf(app, request);
  if (seen === null || holder === null || (JSON.parse(seen) as PendingRegistration).holder !== holder)
    throw new PassportError('ticketInvalid');
  const raw = await app.store.take(keyOf(token));
  if (raw === null) throw new PassportError('ticketInvalid');
  const pending = JSON.parse(raw) as PendingRegistration;
  const user = newUserRow(app.runtime.now(), { email: pending.email, password_hash: pending.passwordHash });
  const principal = await admitSignIn(app, request, user, { newUser: true, proof: 'emailCode' });
  if (principal.kind !== 'person') throw new Error('a registration admits a person');
  return { principal: { ...principal, newAccount: true }, nextUrl: pending.nextUrl };
}
