import { Type } from 'typebox';
import { operationRoute } from '../../adapters/operation-route';
import { answerSignIn } from '../../flows/complete-sign-in';
import { forgetDevice, listDevices } from '../../flows/devices';
import { proveSecondVerify } from '../../flows/second-verify';
import { signInBySecondVerify } from '../../operations/sign-in/credentials';
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
export const smsLoginContinue = operationRoute(signInBySecondVerify, {
  method: 'POST',
  schema: smsLoginContinueSchema,
  data: AccountInfo,
  at: [['web', paths.web.smsLoginContinue]],
  principal: (app, request, body) =>
    proveSecondVerify(app, request, {
      smsCodeKey: body.sms_code_key,
      code: body.code,
      method: body.method,
      credential: body.credential,
    }),
  after: answerSignIn,
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
