import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resetByCode } from './reset-password';

/**
 * Organisation forgot password (identifier, code, password): the identifier is an e-mail address when
 * it holds an '@', a mobile number otherwise; the code is a reset code sent to it (type 4 or 6 by
 * SMS, the e-mail reset purpose by mail). Then it is the password reset flow: every session of the
 * account dies, nobody is signed in, and a member signs in again and picks the identity.
 */
export function orgForgotPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: { identifier: string; code: string; password: string; type?: number | undefined },
) {
  const channel = input.identifier.includes('@') ? 'email' : 'mobile';
  return resetByCode(app, request, reply, {
    channel,
    to: input.identifier,
    code: input.code,
    password: input.password,
    type: input.type,
  });
}
