import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendCode as send } from '../../flows/sign-in';
import { paths, webSuccess } from '../../protocol';
import { emailSendCodeSchema, sendCodeSchema } from '../../schemas/send-code';

/** POST send_code (mobile) and email/send_code: the flow in flows/sign-in. */
const sendCode: FastifyPluginAsyncTypebox = async (app) => {
  app.post(paths.web.sendCode, { schema: sendCodeSchema }, async (request) =>
    webSuccess(
      await send(app, request, {
        channel: 'mobile',
        to: request.body.mobile,
        type: request.body.type,
        smsCodeKey: request.body.sms_code_key,
      }),
    ),
  );

  app.post(paths.web.emailSendCode, { schema: emailSendCodeSchema }, async (request) =>
    webSuccess(
      await send(app, request, {
        channel: 'email',
        to: request.body.email,
        type: request.body.type ?? request.body.ect_type,
      }),
    ),
  );
};

export default sendCode;
