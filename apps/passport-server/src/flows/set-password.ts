import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertStepUp, invoke } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import { changed, identifiersOf, type PasswordChanged, policy } from '../domain/passwords/new-password';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { setFirstPassword } from '../operations/account/passwords';

/**
 * Signed in: a first password (the operation account.password.set). It adds a way in, so it needs a
 * step-up, checked before the new password is judged; the judging and the slow hash happen here,
 * outside the operation's transaction.
 */
export async function setPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { password: string },
): Promise<PasswordChanged> {
  const { user } = requireSession(request);
  if (user.password_hash) throw new PassportError('passwordAlreadySet');
  const principal = principalOf(request);
  await assertStepUp(app, app.db, setFirstPassword, principal);
  const pw = await policy(app, request, input.password, identifiersOf(user));
  const hash = await app.passwords.hash(pw);
  await invoke(app, setFirstPassword, { password_hash: hash }, principal, requestOf(app, request), {
    gate: gateFor(app, request),
  });
  return changed(user.id, true);
}

/** Signed in: whether the account has a password. */
export function hasSetPassword(request: FastifyRequest) {
  return { has_set: requireSession(request).user.password_hash !== null };
}
