import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentPasswordFailureKey, passwordIpFailureKey } from '../domain/passwords/failures';
import {
  changed,
  identifiersOf,
  type PasswordChanged,
  policy,
  storeNewPassword,
} from '../domain/passwords/new-password';
import { normalisePassword } from '../domain/passwords/passwords';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { HOUR } from '../limits';

/**
 * Signed in: a new password, proving the current one. A wrong current password is a password failure
 * like a failed sign-in: it counts against the client address (the same counter as user/login) and
 * against the account, which locks for a while after passwordFailuresPerAccount of them. Signed-in or
 * not, a stolen session cookie buys no free guesses.
 */
export async function updatePassword(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { current_password: string; password: string },
): Promise<PasswordChanged> {
  const { user } = requireSession(request);
  const { store, runtime } = app;
  const limits = runtime.limits;
  const current = normalisePassword(input.current_password);
  const ipKey = passwordIpFailureKey(request.ip);
  const accountKey = currentPasswordFailureKey(user.id);
  if ((await store.count(ipKey)) >= limits.passwordFailuresPerIpPerHour)
    throw new PassportError('rateLimited');
  if ((await store.count(accountKey)) >= limits.passwordFailuresPerAccount)
    throw new PassportError('temporarilyLocked');
  if (!user.password_hash) throw new PassportError('passwordNotSet');
  const pw = await policy(app, request, input.password, identifiersOf(user));
  if (!(await app.passwords.verify(user.password_hash, current))) {
    await store.incr(ipKey, HOUR);
    await store.incr(accountKey, limits.passwordFailureWindowMs);
    throw new PassportError('currentPasswordWrong');
  }
  await store.delete(accountKey);
  await storeNewPassword(app, request, reply, user, pw, 'sign in anew');
  return changed(user.id, true);
}
