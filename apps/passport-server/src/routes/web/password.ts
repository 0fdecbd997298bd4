import { changePassword } from '../../flows/change-password';
import { resetAndLogin, resetByCode, resetByTicket } from '../../flows/reset-password';
import { hasSetPassword, setPassword } from '../../flows/set-password';
import { updatePassword } from '../../flows/update-password';
import { paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  emailChangePasswordSchema,
  emailPasswordResetAndLoginSchema,
  emailPasswordResetSchema,
  HasSetData,
  PasswordChanged,
  passwordChangeSchema,
  passwordHasSetPostSchema,
  passwordHasSetSchema,
  passwordResetByEmailTicketSchema,
  passwordResetByTicketSchema,
  passwordResetSchema,
  passwordSetSchema,
  passwordUpdateSchema,
} from '../../schemas/password';
import { flowRoute } from '../declare';

/** Password reset, change, update, set and has-set; the flows in flows/*-password. */

export const passwordReset = flowRoute({
  method: 'POST',
  schema: passwordResetSchema,
  data: PasswordChanged,
  at: [['web', paths.web.passwordReset]],
  run: (app, request, reply) => {
    const { mobile, ...rest } = request.body;
    return resetByCode(app, request, reply, { channel: 'mobile', to: mobile, ...rest });
  },
});

export const emailPasswordReset = flowRoute({
  method: 'POST',
  schema: emailPasswordResetSchema,
  data: PasswordChanged,
  at: [['web', paths.web.emailPasswordReset]],
  run: (app, request, reply) => {
    const { email, ...rest } = request.body;
    return resetByCode(app, request, reply, { channel: 'email', to: email, ...rest });
  },
});

export const emailPasswordResetAndLogin = flowRoute({
  method: 'POST',
  schema: emailPasswordResetAndLoginSchema,
  data: AccountInfo,
  at: [['web', paths.web.emailPasswordResetAndLogin]],
  run: (app, request, reply) => {
    const { email, ...rest } = request.body;
    return resetAndLogin(app, request, reply, { channel: 'email', to: email, ...rest });
  },
});

export const passwordResetByTicket = flowRoute({
  method: 'POST',
  schema: passwordResetByTicketSchema,
  data: PasswordChanged,
  at: [['web', paths.web.passwordResetByTicket]],
  run: (app, request, reply) => resetByTicket(app, request, reply, { channel: 'mobile', ...request.body }),
});

export const passwordResetByEmailTicket = flowRoute({
  method: 'POST',
  schema: passwordResetByEmailTicketSchema,
  data: PasswordChanged,
  at: [['web', paths.web.passwordResetByEmailTicket]],
  run: (app, request, reply) => resetByTicket(app, request, reply, { channel: 'email', ...request.body }),
});

export const passwordChange = flowRoute({
  method: 'POST',
  schema: passwordChangeSchema,
  data: PasswordChanged,
  at: [['web', paths.web.passwordChange]],
  run: (app, request, reply) => changePassword(app, request, reply, { channel: 'mobile', ...request.body }),
});

export const emailChangePassword = flowRoute({
  method: 'POST',
  schema: emailChangePasswordSchema,
  data: PasswordChanged,
  at: [['web', paths.web.emailChangePassword]],
  run: (app, request, reply) => changePassword(app, request, reply, { channel: 'email', ...request.body }),
});

export const passwordUpdate = flowRoute({
  method: 'POST',
  schema: passwordUpdateSchema,
  data: PasswordChanged,
  at: [['web', paths.web.passwordUpdate]],
  run: (app, request, reply) => updatePassword(app, request, reply, request.body),
});

export const passwordSet = flowRoute({
  method: 'POST',
  schema: passwordSetSchema,
  data: PasswordChanged,
  at: [['web', paths.web.passwordSet]],
  run: (app, request) => setPassword(app, request, request.body),
});

export const passwordHasSet = flowRoute({
  method: 'GET',
  schema: passwordHasSetSchema,
  data: HasSetData,
  at: [['web', paths.web.passwordHasSet]],
  run: async (_app, request) => hasSetPassword(request),
});

export const passwordHasSetPost = flowRoute({
  method: 'POST',
  schema: passwordHasSetPostSchema,
  data: HasSetData,
  at: [['web', paths.web.passwordHasSet]],
  run: async (_app, request) => hasSetPassword(request),
});
