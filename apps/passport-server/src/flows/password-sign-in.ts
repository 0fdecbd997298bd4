import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../adapters/invoke';
import type { Identifier } from '../domain/accounts/accounts';
import { chargePasswordGuess, lockedLaneKey, signInGuessCounters } from '../domain/passwords/failures';
import { normalisePassword } from '../domain/passwords/passwords';
import type { FailureCharge } from '../domain/risk/risk';
import { PassportError } from '../errors';
import { recordAccountEvent } from '../events/record';
import { normaliseEmail, normaliseMobile, normaliseUsername } from '../lib/identifiers';
import { signInByPassword } from '../operations/sign-in/credentials';
import { admitSignIn, signInThrough } from './complete-sign-in';

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
  const asMobile = (v: string) =>
    normaliseMobile(v, region, { fictional: app.config.fictionalNumbers })?.e164 ?? null;
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

/**
 * Proves a password sign-in, before its operation (src/operations/sign-in/credentials.ts) and outside
 * its transaction: the identifier, the guess charges, the slow hash, second verification. Unknown
 * account, no password set and wrong password give one answer after one argon2 verify each; failures
 * count per client address and per identifier and address (the temporary lock, on the attacker's
 * side), shared by every path that reaches this step, so alternating paths buys no guesses.
 */
export async function provePassword(
  app: FastifyInstance,
  request: FastifyRequest,
  body: PasswordSignIn,
): Promise<Principal> {
  const { passwords, accounts } = app;
  const password = normalisePassword(body.password);
  const identifier = identifierOf(app, body);
  if (!identifier) throw new PassportError('identifierRequired');

  // The owner on a device the account remembers is not held up by strangers' failures on the account,
  // nor by strangers behind the same address: its guesses count on the device (signInGuessCounters).
  const user = identifier.kind === 'invalid' ? undefined : await accounts.find(identifier);
  const knownDevice = user ? await app.devices.isRemembered(user.id, request) : false;
  // Every guess is charged before argon2id judges it (the address's hourly count, the lock on this
  // identifier and address, then the risk counters), so parallel guesses cannot race past any of them.
  const counters = signInGuessCounters(app, request, identifier, knownDevice);
  // Behind an address whose lock on this identifier strangers closed (an office NAT), the guess is
  // judged on the identifier's locked-lane budget, and a right password leads to a second verification
  // by the account's own channel instead of a session (docs/security.md).
  const lane = knownDevice ? undefined : lockedLaneKey(identifier.kind, identifier.value);
  const guess = await chargePasswordGuess(app, request.ip, counters.lockKey, counters.hourlyKey, lane);
  let risk: FailureCharge | undefined;
  let right: boolean;
  try {
    risk = await app.risk.chargeFailure(request, {
      target: `${identifier.kind}:${identifier.value}`,
      knownDevice,
    });
    // Unknown account, no password set, wrong password: one answer, one argon2 verify each.
    right = (await passwords.verify(user?.password_hash ?? null, password)) && Boolean(user?.password_hash);
  } catch (error) {
    await Promise.all([guess.refund(), risk?.refund()]);
    throw error;
  }
  // A wrong guess keeps its charges: they are the failures counted.
  if (!right || !user?.password_hash) {
    // The account's owner sees guesses at their password (an unknown account has nobody to tell). Not
    // awaited: an unknown account's answer makes no commit, so waiting for this one would let the
    // answer's time tell that the account exists (a commit is slow on a busy disk).
    if (user?.password_hash)
      recordAccountEvent(app, request, app.db, {
        type: 'account.sign_in_failed',
        userId: user.id,
        anonymous: true,
        data: { method: 'password', reason: 'wrong_password' },
      }).catch((error: unknown) => app.log.warn({ err: error }, 'a failed sign-in was not recorded'));
    // In the locked lane a wrong password answers as the lock did: nothing tells it from the lock.
    throw new PassportError(guess.locked ? 'temporarilyLocked' : 'wrongCredentials');
  }
  await Promise.all([guess.right(), risk?.right()]);
  if (passwords.needsRehash(user.password_hash)) {
    await accounts.setPasswordHash(user.id, await passwords.hash(password));
  }
  return admitSignIn(app, request, user, { newUser: false, proof: 'password', lockedLane: guess.locked });
}

/** A password sign-in outside an operation route (the app family's /Login): proven, then signed in. */
export async function passwordSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  body: PasswordSignIn,
) {
  const principal = await provePassword(app, request, body);
  return signInThrough(app, request, reply, signInByPassword, body, principal);
}
