import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientLaneOf } from '../domain/codes/codes';
import { browserOf } from '../domain/sessions/browser';
import { eventContextOf } from '../events/record';
import type { RequestContext } from '../operations/define';

/**
 * Where a request came from, as an operation is given it: the address and device id its events keep
 * (read as the flows' own events read them), and what the browser presented that a sign-in or a
 * sign-out reads (its session, its device token, its user agent).
 */
export function requestOf(app: FastifyInstance, request: FastifyRequest): RequestContext {
  const { ip = null, deviceId = null } = eventContextOf(app, request);
  return { ip, deviceId, browser: browserOf(app, request), client: clientLaneOf(app, request) };
}
