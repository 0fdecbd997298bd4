import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { codeSignIn, passwordSignIn } from '../../flows/sign-in';
import { paths, webSuccess } from '../../protocol';
import {
  emailCodeLoginSchema,
  passwordLoginSchema,
  smsLoginOnlySchema,
  smsLoginSchema,
} from '../../schemas/login';

const mobileCode = (b: { mobile: string; code: string; type?: number | undefined }) => ({
  to: b.mobile,
  code: b.code,
  type: b.type,
});
const emailCode = (b: { email: string; code: string; type?: number | undefined }) => ({
  to: b.email,
  code: b.code,
  type: b.type,
});

/** sms_login, sms_login_only, email/code_login and user/login (password): the flows in flows/sign-in. */
const login: FastifyPluginAsyncTypebox = async (app) => {
  app.post(paths.web.smsLogin, { schema: smsLoginSchema }, async (request, reply) =>
    webSuccess(await codeSignIn(app, request, reply, 'sms', mobileCode(request.body))),
  );

  app.post(paths.web.smsLoginOnly, { schema: smsLoginOnlySchema }, async (request, reply) =>
    webSuccess(await codeSignIn(app, request, reply, 'smsOnly', mobileCode(request.body))),
  );

  app.post(paths.web.emailCodeLogin, { schema: emailCodeLoginSchema }, async (request, reply) =>
    webSuccess(await codeSignIn(app, request, reply, 'email', emailCode(request.body))),
  );

  app.post(paths.web.userLogin, { schema: passwordLoginSchema }, async (request, reply) =>
    webSuccess(await passwordSignIn(app, request, reply, request.body)),
  );
};

export default login;
