import type { FastifyRequest } from 'fastify';
import { accountInfo } from '../domain/accounts/account-info';
import { requireSession } from '../domain/sessions/sessions';

/** Whether the request carries a valid session; no session is an answer, not an error. */
export function checkLogin(request: FastifyRequest) {
  return request.session ? { is_login: true, user_id: request.session.userId } : { is_login: false };
}

/** The signed-in account (identifiers masked), or NOT_LOGGED_IN. */
export function signedInAccount(request: FastifyRequest) {
  return accountInfo(requireSession(request));
}
