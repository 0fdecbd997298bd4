import { sendCode } from '../../flows/send-code';
import { paths } from '../../protocol';
import { emailSendCodeSchema, SendCodeData, sendCodeSchema } from '../../schemas/send-code';
import { flowRoute } from '../declare';

/**
 * send_code: to `mobile`, or to the account of a second verification's `sms_code_key`; the open family's
 * (the authorization page's) too, POST only as every code send (docs/open-authorization.md).
 */
export const webSendCode = flowRoute({
  method: 'POST',
  schema: sendCodeSchema,
  data: SendCodeData,
  at: [
    ['web', paths.web.sendCode],
    ['open', paths.open.sendCode],
  ],
  run: (app, request) =>
    sendCode(app, request, {
      channel: 'mobile',
      to: request.body.mobile,
      type: request.body.type,
      smsCodeKey: request.body.sms_code_key,
      method: request.body.method,
    }),
});

/** email/send_code: the purpose as `type`, or as `ect_type` as the sso flavour names it. */
export const emailSendCode = flowRoute({
  method: 'POST',
  schema: emailSendCodeSchema,
  data: SendCodeData,
  at: [
    ['web', paths.web.emailSendCode],
    ['sso', paths.sso.emailSendCode],
  ],
  run: (app, request) =>
    sendCode(app, request, {
      channel: 'email',
      to: request.body.email,
      type: request.body.type ?? request.body.ect_type,
    }),
});
