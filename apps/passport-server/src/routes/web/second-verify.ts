import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireSession } from '../../domain/sessions/sessions';
import { PassportError } from '../../errors';
import { continueSignIn } from '../../flows/second-verify';
import { paths, webSuccess } from '../../protocol';
import { deviceForgetSchema, deviceListSchema, smsLoginContinueSchema } from '../../schemas/second-verify';

/** sms_login_continue (the second verification's last step) and the account's remembered devices. */
const secondVerify: FastifyPluginAsyncTypebox = async (app) => {
  app.post(paths.web.smsLoginContinue, { schema: smsLoginContinueSchema }, async (request, reply) =>
    webSuccess(
      await continueSignIn(app, request, reply, {
        smsCodeKey: request.body.sms_code_key,
        code: request.body.code,
      }),
    ),
  );

  app.get(paths.web.deviceList, { schema: deviceListSchema }, async (request) => {
    const session = requireSession(request);
    return webSuccess({ devices: await app.devices.list(session.userId, request) });
  });

  // Another account's device and no device at all answer the same NOT_FOUND, with no side effect.
  app.post(paths.web.deviceForget, { schema: deviceForgetSchema }, async (request) => {
    const session = requireSession(request);
    if (!(await app.devices.forget(session.userId, request.body.device_id)))
      throw new PassportError('notFound');
    return webSuccess({});
  });
};

export default secondVerify;
