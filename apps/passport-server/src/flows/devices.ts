import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoke } from '../adapters/invoke';
import { gateFor, principalOf } from '../adapters/operation-route';
import { requestOf } from '../adapters/request';
import { forgetRememberedDevice, listDevices as listOperation } from '../operations/account/devices';

/**
 * The request's side of the remembered devices' operations (src/operations/account/devices.ts): which
 * device token this browser presents, read from its cookie.
 */

/** The signed-in account's remembered devices, this browser's marked. */
export function listDevices(app: FastifyInstance, request: FastifyRequest) {
  const input = { presented: app.devices.tokenHashOf(request) };
  return invoke(app, listOperation, input, principalOf(request), requestOf(app, request), {
    gate: gateFor(app, request),
  });
}

/** Forgets one of them: another account's device and no device at all answer the same NOT_FOUND. */
export async function forgetDevice(app: FastifyInstance, request: FastifyRequest, deviceId: string) {
  return invoke(
    app,
    forgetRememberedDevice,
    { device_id: deviceId },
    principalOf(request),
    requestOf(app, request),
    { gate: gateFor(app, request) },
  );
}
