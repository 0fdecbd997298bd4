import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../db/schema';
import { PassportError } from '../errors';
import { mask, normaliseEmail, normaliseMobile, normaliseUsername } from '../lib/identifiers';
import { rateLimitKey } from '../lib/ip';
import { isPurpose, needsSession, SIGN_IN_PURPOSES } from '../lib/purposes';
import { safeRedirect } from '../lib/redirect';
import { accountInfo, languageOf } from '../lib/respond';
import type { Identifier } from '../plugins/app/accounts';
import type { Channel } from '../plugins/app/codes';
import { normalisePassword } from '../plugins/app/passwords';
import { requireSession } from '../plugins/app/sessions';
import { CodeType, type SendCodeData } from '../protocol';
import { emailOf, mobileOf } from '../routes/web/identifiers';
import { completeSignIn, type SignInProof, sendSecondVerifyCode } from './second-verify';

/**
 * The sign-in flows, once each: every path family (web, sso, legacy root paths, mobile, the app API)
 * calls these and only wraps the answer in its envelope. They return the envelope's `data` and throw
 * PassportError for failures, which the error handler renders in the route's envelope.
 */

/**
 * The account view of a fresh sign-in; a frozen account gets ACCOUNT_FROZEN instead of a session, and
 * an unknown device of an account with a mobile SECOND_VERIFY (flows/second-verify).
 */
function finishSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  newUser: boolean,
  proof: SignInProof,
) {
  return completeSignIn(app, request, reply, user, { newUser, proof });
}

/** Which purpose a send names; a signed-in purpose (bind, change, …) needs a session. */
function sendPurpose(request: FastifyRequest, type: number | undefined): number {
  if (type === undefined || !isPurpose(type)) throw new PassportError('codeTypeInvalid');
  if (needsSession(type) && !request.session) throw new PassportError('notLoggedIn');
  return type;
}

/** Sends a one-time code by SMS (`mobile`) or e-mail (`email`) for a purpose. */
export async function sendCode(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { channel: Channel; to: string | undefined; type: number | undefined; smsCodeKey?: unknown },
) {
  // Second verification: the key names the account's mobile, which the client never sees unmasked.
  if (input.channel === 'mobile' && typeof input.smsCodeKey === 'string' && input.smsCodeKey !== '')
    return sendSecondVerifyCode(app, request, { smsCodeKey: input.smsCodeKey, type: input.type });
  if (input.to === undefined) throw new PassportError('invalidParam', { field: 'body/mobile' });
  const target = input.channel === 'mobile' ? mobileOf(app, input.to) : emailOf(input.to);
  const purpose = sendPurpose(request, input.type);
  await app.risk.require(request, 'sendCode', { target: `${input.channel}:${target}` });
  const sent = await app.codes.send({
    channel: input.channel,
    target,
    purpose,
    ip: request.ip,
    language: languageOf(request),
  });
  return {
    [input.channel]: mask(target),
    retry_time: sent.retryAfter,
    expires_in: sent.expiresIn,
  } as SendCodeData;
}

/** The code sign-ins: which channel, which purposes they consume, whether they may create an account. */
export const CODE_SIGN_INS = {
  /** sms_login: signs in or registers. */
  sms: {
    channel: 'mobile',
    allowed: SIGN_IN_PURPOSES.smsLogin,
    fallback: CodeType.mobileLogin,
    register: true,
  },
  /** sms_login_only: existing accounts only (ACCOUNT_NOT_FOUND after the code is verified). */
  smsOnly: {
    channel: 'mobile',
    allowed: SIGN_IN_PURPOSES.smsLoginOnly,
    fallback: CodeType.mobileLogin,
    register: false,
  },
  /** email/code_login: signs in or registers. */
  email: {
    channel: 'email',
    allowed: SIGN_IN_PURPOSES.emailCodeLogin,
    fallback: CodeType.emailLogin,
    register: true,
  },
} as const satisfies Record<
  string,
  { channel: Channel; allowed: ReadonlySet<number>; fallback: number; register: boolean }
>;

export type CodeSignInKind = keyof typeof CODE_SIGN_INS;

/** Signs in (or up) with a one-time code bound to its purpose and target. */
export async function codeSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CodeSignInKind,
  input: { to: string; code: string; type: number | undefined },
) {
  const { channel, allowed, fallback, register } = CODE_SIGN_INS[kind];
  const target = channel === 'mobile' ? mobileOf(app, input.to) : emailOf(input.to);
  const purpose = input.type ?? fallback;
  if (!allowed.has(purpose)) throw new PassportError('codeTypeInvalid');
  const risk = { target: `${channel}:${target}` };
  await app.risk.require(request, 'signIn', risk);
  await app.codes.verify({ channel, target, purpose, code: input.code }).catch(async (error: unknown) => {
    await app.risk.recordFailure(request, risk);
    throw error;
  });
  const identifier = { kind: channel, value: target } as const;
  const proof = channel === 'mobile' ? 'mobileCode' : 'emailCode';
  if (!register) {
    const user = await app.accounts.find(identifier);
    if (!user) throw new PassportError('accountNotFound');
    return finishSignIn(app, request, reply, user, false, proof);
  }
  const { user, created } = await app.accounts.findOrCreate(identifier);
  return finishSignIn(app, request, reply, user, created, proof);
}

export interface PasswordSignIn {
  password: string;
  email?: string | undefined;
  mobile?: string | undefined;
  username?: string | undefined;
  account?: string | undefined;
}

/** Which identifier a password login names; `account` is read as e-mail, mobile or username. */
function identifierOf(
  app: FastifyInstance,
  body: PasswordSignIn,
): Identifier | { kind: 'invalid'; value: string } | null {
  const region = app.config.defaultRegion;
  const asEmail = (v: string) => normaliseEmail(v);
  const asMobile = (v: string) => normaliseMobile(v, region)?.e164 ?? null;
  const candidates: [Identifier['kind'], string | undefined, (v: string) => string | null][] = [
    ['email', body.email, asEmail],
    ['mobile', body.mobile, asMobile],
    ['username', body.username, normaliseUsername],
  ];
  for (const [kind, raw, normalise] of candidates) {
    if (raw === undefined || raw === '') continue;
    const value = normalise(raw);
    return value ? { kind, value } : { kind: 'invalid', value: raw.slice(0, 254) };
  }
  const account = body.account;
  if (account === undefined || account === '') return null;
  if (account.includes('@')) {
    const email = asEmail(account);
    return email ? { kind: 'email', value: email } : { kind: 'invalid', value: account.slice(0, 254) };
  }
  if (/^[+0-9()\-.\s]+$/.test(account)) {
    const mobile = asMobile(account);
    if (mobile) return { kind: 'mobile', value: mobile };
  }
  const username = normaliseUsername(account);
  return username ? { kind: 'username', value: username } : { kind: 'invalid', value: account.slice(0, 254) };
}

/** The store key counting wrong passwords given for one identifier (the account lock). */
export const passwordFailureKey = (kind: Identifier['kind'] | 'invalid', value: string) =>
  `pw:fail:id:${kind}:${value}`;

/**
 * Signs in with a password and one identifier. Unknown account, no password set and wrong password give
 * one answer after one argon2 verify each; failures count per client address and per identifier, shared
 * by every path that reaches this flow, so alternating paths buys no guesses.
 */
export async function passwordSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  body: PasswordSignIn,
) {
  const { store, passwords, accounts, runtime } = app;
  const limits = runtime.limits;
  const password = normalisePassword(body.password);
  const identifier = identifierOf(app, body);
  if (!identifier) throw new PassportError('identifierRequired');

  const ipKey = `pw:fail:ip:${rateLimitKey(request.ip)}`;
  const accountKey = passwordFailureKey(identifier.kind, identifier.value);
  if ((await store.count(ipKey)) >= limits.passwordFailuresPerIpPerHour)
    throw new PassportError('rateLimited');
  if ((await store.count(accountKey)) >= limits.passwordFailuresPerAccount)
    throw new PassportError('temporarilyLocked');

  const risk = { target: `${identifier.kind}:${identifier.value}` };
  await app.risk.require(request, 'signIn', risk);

  const user = identifier.kind === 'invalid' ? undefined : await accounts.find(identifier);
  // Unknown account, no password set, wrong password: one answer, one argon2 verify each.
  if (!(await passwords.verify(user?.password_hash ?? null, password)) || !user?.password_hash) {
    await store.incr(ipKey, 3_600_000);
    await store.incr(accountKey, limits.passwordFailureWindowMs);
    await app.risk.recordFailure(request, risk);
    throw new PassportError('wrongCredentials');
  }
  await store.delete(accountKey);
  await app.risk.recordSuccess(request, risk);
  if (passwords.needsRehash(user.password_hash)) {
    await accounts.setPasswordHash(user.id, await passwords.hash(password));
  }
  return finishSignIn(app, request, reply, user, false, 'password');
}

/** Whether the request carries a valid session; no session is an answer, not an error. */
export function checkLogin(request: FastifyRequest) {
  return request.session ? { is_login: true, user_id: request.session.userId } : { is_login: false };
}

/** The signed-in account (identifiers masked), or NOT_LOGGED_IN. */
export function signedInAccount(request: FastifyRequest) {
  return accountInfo(requireSession(request));
}

/** Ends the request's session server side and in the browser; answers the checked `next`. */
export async function signOut(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  next?: unknown,
) {
  await app.sessions.signOut(request, reply);
  return { next: safeRedirect(next, app.config.publicOrigin, app.config.allowedOrigins) };
}

/**
 * Logout by GET, the one GET that changes state (the SDK logs out by navigating). It refuses what a
 * foreign page would send: a cross-site navigation whose Referer is not an allowed origin. `redirect`
 * says whether to send the browser on to `next` (unless `not_redirect=1`).
 */
export async function signOutByLink(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  query: { next?: string | undefined; not_redirect?: string | undefined },
) {
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    let referrer: string | null = null;
    try {
      referrer = request.headers.referer ? new URL(request.headers.referer).origin : null;
    } catch {}
    const trusted =
      referrer === app.config.publicOrigin || app.config.allowedOrigins.includes(referrer ?? '');
    if (!referrer || !trusted) throw new PassportError('csrfFailed', { reason: 'origin' });
  }
  const answer = await signOut(app, request, reply, query.next);
  return { ...answer, redirect: query.not_redirect !== '1' };
}
