import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';

/** The signed-in account's remembered devices. */
export async function listDevices(app: FastifyInstance, request: FastifyRequest) {
  const session = requireSession(request);
  return { devices: await app.devices.list(session.userId, request) };
}

/** Forgets one of them: another account's device and no device at all answer the same NOT_FOUND. */
export async function forgetDevice(app: FastifyInstance, request: FastifyRequest, deviceId: string) {
  const session = requireSession(request);
  if (!(await app.devices.forget(session.userId, deviceId))) throw new PassportError('notFound');
  return {};
}
