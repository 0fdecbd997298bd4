import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  changePassword,
  hasSetPassword,
  resetAndLogin,
  resetByCode,
  resetByTicket,
  setPassword,
  updatePassword,
} from '../../flows/password';
import { paths, webSuccess } from '../../protocol';
import {
  emailChangePasswordSchema,
  emailPasswordResetAndLoginSchema,
  emailPasswordResetSchema,
  passwordChangeSchema,
  passwordHasSetPostSchema,
  passwordHasSetSchema,
  passwordResetByEmailTicketSchema,
  passwordResetByTicketSchema,
  passwordResetSchema,
  passwordSetSchema,
  passwordUpdateSchema,
} from '../../schemas/password';

/**
 * Password reset, change, update, set and has-set in the web envelope. The flows live in
 * flows/password (shared with the legacy and mobile families); these routes only wrap the answer.
 */
const password: FastifyPluginAsyncTypebox = async (app) => {
  app.post(paths.web.passwordReset, { schema: passwordResetSchema }, async (request, reply) => {
    const { mobile, ...rest } = request.body;
    return webSuccess(await resetByCode(app, request, reply, { channel: 'mobile', to: mobile, ...rest }));
  });

  app.post(paths.web.emailPasswordReset, { schema: emailPasswordResetSchema }, async (request, reply) => {
    const { email, ...rest } = request.body;
    return webSuccess(await resetByCode(app, request, reply, { channel: 'email', to: email, ...rest }));
  });

  app.post(
    paths.web.emailPasswordResetAndLogin,
    { schema: emailPasswordResetAndLoginSchema },
    async (request, reply) => {
      const { email, ...rest } = request.body;
      return webSuccess(await resetAndLogin(app, request, reply, { channel: 'email', to: email, ...rest }));
    },
  );

  app.post(paths.web.passwordResetByTicket, { schema: passwordResetByTicketSchema }, async (request, reply) =>
    webSuccess(await resetByTicket(app, request, reply, { channel: 'mobile', ...request.body })),
  );

  app.post(
    paths.web.passwordResetByEmailTicket,
    { schema: passwordResetByEmailTicketSchema },
    async (request, reply) =>
      webSuccess(await resetByTicket(app, request, reply, { channel: 'email', ...request.body })),
  );

  app.post(paths.web.passwordChange, { schema: passwordChangeSchema }, async (request, reply) =>
    webSuccess(await changePassword(app, request, reply, { channel: 'mobile', ...request.body })),
  );

  app.post(paths.web.emailChangePassword, { schema: emailChangePasswordSchema }, async (request, reply) =>
    webSuccess(await changePassword(app, request, reply, { channel: 'email', ...request.body })),
  );

  app.post(paths.web.passwordUpdate, { schema: passwordUpdateSchema }, async (request, reply) =>
    webSuccess(await updatePassword(app, request, reply, request.body)),
  );

  app.post(paths.web.passwordSet, { schema: passwordSetSchema }, async (request) =>
    webSuccess(await setPassword(app, request, request.body)),
  );

  const hasSet = async (request: FastifyRequest) => webSuccess(hasSetPassword(request));
  app.get(paths.web.passwordHasSet, { schema: passwordHasSetSchema }, hasSet);
  app.post(paths.web.passwordHasSet, { schema: passwordHasSetPostSchema }, hasSet);
};

export default password;
