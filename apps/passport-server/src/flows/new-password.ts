import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invoke } from '../adapters/invoke';
import { gateFor } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import type { User } from '../db/schema';
import type { Channel } from '../domain/codes/codes';
import { changed, liftPasswordLocks, type PasswordChanged } from '../domain/passwords/new-password';
import type { OpenedSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { changePassword, resetPassword } from '../operations/account/passwords';

/**
 * The request's side of storing a new password (the operations in src/operations/account/passwords.ts):
 * the new password was judged and proven by the flow; here it is hashed (outside the transaction: a slow
 * hash must not hold it, nor SQLite's one connection), the operation stores it, and this browser's
 * session and the account's password locks follow.
 */

/**
 * A signed-in change: every session ends and this browser is signed in anew on a fresh token, in the
 * change's transaction (a frozen account's password changes all the same, and it is not signed in:
 * ACCOUNT_FROZEN). The browser that changed it stays a remembered device; the others are forgotten.
 */
export async function storeChanged(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  password: string,
  ticket?: { ticket: string; channel: Channel },
): Promise<PasswordChanged> {
  const hash = await app.passwords.hash(password);
  const renewed: { opened: OpenedSession | null } = { opened: null };
  const stored = await invoke(
    app,
    changePassword,
    {
      password_hash: hash,
      keep_device: app.devices.tokenHashOf(request),
      ...(ticket ? { ticket } : {}),
    },
    { kind: 'person', user },
    requestOf(app, request),
    {
      gate: gateFor(app, request),
      within: async (tx, output) => {
        if (!(output as { frozen: boolean }).frozen)
          renewed.opened = await app.sessions.open(tx, request, user.id);
      },
    },
  );
  await liftPasswordLocks(app, request, user);
  if (!renewed.opened) throw new PassportError('accountFrozen');
  app.sessions.start(request, reply, renewed.opened);
  return changed(stored.user_id, true);
}

/**
 * A reset: every session of the account ends and nobody is signed in; when this browser held one of
 * them, its cookie is cleared too.
 */
export async function storeReset(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  password: string,
  ticket?: { ticket: string; channel: Channel; target: string },
): Promise<PasswordChanged> {
  const hash = await app.passwords.hash(password);
  const stored = await invoke(
    app,
    resetPassword,
    { password_hash: hash, ...(ticket ? { ticket } : {}) },
    { kind: 'person', user },
    requestOf(app, request),
    { gate: gateFor(app, request) },
  );
  // Its session row is gone with the others: only the cookie is left to clear.
  if (request.session?.userId === user.id) await app.sessions.signOut(request, reply);
  await liftPasswordLocks(app, request, user);
  return changed(stored.user_id, false);
}
