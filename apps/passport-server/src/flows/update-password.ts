import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentPasswordIsRight } from '../domain/passwords/failures';
import { identifiersOf, type PasswordChanged, policy } from '../domain/passwords/new-password';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { storeChanged } from './new-password';

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
  const hash = user.password_hash;
  if (!hash) throw new PassportError('passwordNotSet');
  // The new password is judged after the guess is charged (a locked account answers first) and before
  // the current one is verified (a refused new password is no guess).
  let pw: Awaited<ReturnType<typeof policy>> | undefined;
  const right = await currentPasswordIsRight(
    app,
    request.ip,
    user.id,
    hash,
    input.current_password,
    async () => {
      pw = await policy(app, request, input.password, identifiersOf(user));
    },
  );
  if (!right || pw === undefined) throw new PassportError('currentPasswordWrong');
  return storeChanged(app, request, reply, user, pw);
}
