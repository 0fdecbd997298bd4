import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import { type Channel, codeLaneOf } from '../domain/codes/codes';
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
  input: {
    channel: Channel;
    to: string | undefined;
    type: number | undefined;
    smsCodeKey?: unknown;
    method?: string | undefined;
  },
) {
  // Second verification: the key names the account's mobile, which the client never sees unmasked.
  if (input.channel === 'mobile' && typeof input.smsCodeKey === 'string' && input.smsCodeKey !== '')
    return sendSecondVerifyCode(app, request, {
      smsCodeKey: input.smsCodeKey,
      type: input.type,
      method: input.method,
    });
  if (input.to === undefined) throw new PassportError('invalidParam', { field: 'body/mobile' });
  const target = input.channel === 'mobile' ? mobileOf(app, input.to) : emailOf(input.to);
  const purpose = sendPurpose(request, input.type);
  // The owner on a device the account knows has a lane of its own: strangers' sends never spend it.
  const lane = await codeLaneOf(app, request, input.channel, target);
  await app.risk.require(request, 'sendCode', {
    target: `${input.channel}:${target}`,
    knownDevice: lane === 'owner',
  });
  const sent = await app.codes.send({
    channel: input.channel,
    target,
    purpose,
    ip: request.ip,
    language: languageOf(request),
    lane,
  });
  return {
    [input.channel]: mask(target),
    retry_time: sent.retryAfter,
    expires_in: sent.expiresIn,
  } as SendCodeData;
}
