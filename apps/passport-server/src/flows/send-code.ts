import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import type { Channel } from '../domain/codes/codes';
import { PassportError } from '../errors';
import { mask } from '../lib/identifiers';
import { languageOf } from '../lib/language';
import { isPurpose, needsSession } from '../lib/purposes';
import type { SendCodeData } from '../protocol';
import { sendSecondVerifyCode } from './second-verify';

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
