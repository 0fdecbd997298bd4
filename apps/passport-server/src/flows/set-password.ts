import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changed, identifiersOf, type PasswordChanged, policy } from '../domain/passwords/new-password';
import { requireSession } from '../domain/sessions/sessions';
import { requireStepUp } from '../domain/sessions/step-up';
import { PassportError } from '../errors';
import { recordAccountEvent } from '../events/record';

/**
 * Signed in: a first password. It adds a way in, so it needs a step-up (src/domain/sessions/step-up.ts);
 * it replaces nothing, so other sessions live on; a conditional update, so of two concurrent sets one
 * wins and the other gets PASSWORD_ALREADY_SET.
 */
export async function setPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { password: string },
): Promise<PasswordChanged> {
  const session = requireSession(request);
  const { user } = session;
  if (user.password_hash) throw new PassportError('passwordAlreadySet');
  await requireStepUp(app, session);
  const pw = await policy(app, request, input.password, identifiersOf(user));
  const hash = await app.passwords.hash(pw);
  // The password and its event commit together, once.
  await app.db.transaction().execute(async (tx) => {
    if (!(await app.accounts.setFirstPasswordHash(user.id, hash, tx)))
      throw new PassportError('passwordAlreadySet');
    await recordAccountEvent(app, request, tx, { type: 'account.password_set', userId: user.id, data: {} });
  });
  return changed(user.id, true);
}

/** Signed in: whether the account has a password. */
export function hasSetPassword(request: FastifyRequest) {
  return { has_set: requireSession(request).user.password_hash !== null };
}
