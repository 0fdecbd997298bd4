import { Type } from 'typebox';
import { forgetDevice, listDevices } from '../../flows/devices';
import { continueSignIn } from '../../flows/second-verify';
import { paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  Device,
  deviceForgetSchema,
  deviceListSchema,
  smsLoginContinueSchema,
} from '../../schemas/second-verify';
import { flowRoute } from '../declare';

/** sms_login_continue: the second verification's last step (flows/second-verify). */
export const smsLoginContinue = flowRoute({
  method: 'POST',
  schema: smsLoginContinueSchema,
  data: AccountInfo,
  at: [['web', paths.web.smsLoginContinue]],
  run: (app, request, reply) =>
    continueSignIn(app, request, reply, {
      smsCodeKey: request.body.sms_code_key,
      code: request.body.code,
      method: request.body.method,
    }),
});

/** The account's remembered devices. */
export const deviceList = flowRoute({
  method: 'GET',
  schema: deviceListSchema,
  data: Type.Object({ devices: Type.Array(Device) }),
  at: [['web', paths.web.deviceList]],
  run: (app, request) => listDevices(app, request),
});

export const deviceForget = flowRoute({
  method: 'POST',
  schema: deviceForgetSchema,
  data: Type.Object({}),
  at: [['web', paths.web.deviceForget]],
  run: (app, request) => forgetDevice(app, request, request.body.device_id),
});
