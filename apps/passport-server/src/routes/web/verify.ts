import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emailOf, mobileOf } from '../../domain/accounts/targets';
import type { Channel } from '../../domain/codes/codes';
import { PassportError } from '../../errors';
import { isPurpose, needsSession } from '../../lib/purposes';
import { paths, webSuccess } from '../../protocol';
import { emailCheckCodeSchema, mobileCheckCodeSchema } from '../../schemas/verify';

export interface CodeCheck {
  channel: Channel;
  target: string;
  purpose: number | undefined;
  code: string;
  /** Purposes this endpoint accepts; any code purpose of the spec when absent. */
  allowed?: ReadonlySet<number>;
}

/**
 * Uses a code up and hands out a verify ticket for the same purpose, channel and target. A purpose that
 * needs a session (change password, old mobile, …) binds the ticket to the signed-in user; the endpoint
 * that consumes such a ticket checks the user and the target again.
 */
export async function ticketForCode(app: FastifyInstance, request: FastifyRequest, check: CodeCheck) {
  const { purpose } = check;
  if (purpose === undefined || !isPurpose(purpose) || (check.allowed && !check.allowed.has(purpose)))
    throw new PassportError('codeTypeInvalid');
  let userId: string | null = null;
  if (needsSession(purpose)) {
    if (!request.session) throw new PassportError('notLoggedIn');
    userId = request.session.userId;
  }
  await app.codes.verify({ channel: check.channel, target: check.target, purpose, code: check.code });
  const issued = await app.tickets.issue({ purpose, channel: check.channel, target: check.target, userId });
  return webSuccess({ ticket: issued.ticket, verify_ticket: issued.ticket, expires_in: issued.expiresIn });
}

/** validate_code and mobile/check_code (SMS), email/check_code and email/verify (e-mail): code → ticket. */
const verify: FastifyPluginAsyncTypebox = async (app) => {
  for (const url of [paths.web.validateCode, paths.web.mobileCheckCode]) {
    app.post(url, { schema: mobileCheckCodeSchema }, async (request) =>
      ticketForCode(app, request, {
        channel: 'mobile',
        target: mobileOf(app, request.body.mobile),
        purpose: request.body.type,
        code: request.body.code,
      }),
    );
  }
  for (const url of [paths.web.emailCheckCode, paths.web.emailVerify]) {
    app.post(url, { schema: emailCheckCodeSchema }, async (request) =>
      ticketForCode(app, request, {
        channel: 'email',
        target: emailOf(request.body.email),
        purpose: request.body.type ?? request.body.ect_type,
        code: request.body.code,
      }),
    );
  }
};

export default verify;
