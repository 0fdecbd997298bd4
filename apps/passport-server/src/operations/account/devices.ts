import { Type } from 'typebox';
import { devicesOf, forgetDevice } from '../../domain/devices/devices';
import { PassportError } from '../../errors';
import { Device, DeviceForgetBody } from '../../schemas/second-verify';
import { caller, defineOperation } from '../define';

/**
 * The signed-in account's remembered devices (docs/second-verify.md): the ones whose next sign-in skips
 * the second verification. The request's side (src/flows/devices.ts) says which device token the
 * listing browser presents, so that its own row is marked `current`.
 */

export const listDevices = defineOperation({
  name: 'account.device.list',
  input: Type.Object({
    /** The token hash of the device the request presents; null: none. Never on the wire. */
    presented: Type.Union([Type.String(), Type.Null()]),
  }),
  output: Type.Object({ devices: Type.Array(Device) }),
  caller: caller.person,
  emits: [],
  run: async (ctx, input) => ({
    devices: await devicesOf(ctx.tx, ctx.caller.user.id, ctx.now(), input.presented),
  }),
});

/** Forgets one of them: another account's device and no device at all answer the same NOT_FOUND. */
export const forgetRememberedDevice = defineOperation({
  name: 'account.device.forget',
  input: DeviceForgetBody,
  output: Type.Object({}),
  caller: caller.person,
  emits: [],
  async run(ctx, input) {
    if (!(await forgetDevice(ctx.tx, ctx.caller.user.id, input.device_id)))
      throw new PassportError('notFound');
    return {};
  },
});
