import { PassportError } from '../../errors';
import { resetByCode } from '../../flows/reset-password';
import { paths } from '../../protocol';
import { CommonQuery, FORM } from '../../schemas/common';
import { CodeResetBody, PasswordChanged } from '../../schemas/password';
import { flowRoute } from '../declare';

/** reset_password of the legacy root and the mobile family: `mobile` (which wins) or `email`. */
export const resetPassword = flowRoute({
  method: 'POST',
  schema: {
    summary:
      'Reset a forgotten password with a mobile number or e-mail address and its reset code; kills every session of the account',
    tags: ['password'],
    consumes: FORM,
    querystring: CommonQuery,
    body: CodeResetBody,
  },
  data: PasswordChanged,
  at: [
    ['legacy', paths.legacy.resetPassword],
    ['mobile', paths.mobile.resetPassword],
  ],
  run: (app, request, reply) => {
    const { mobile, email, code, type, password } = request.body;
    if (mobile !== undefined)
      return resetByCode(app, request, reply, { channel: 'mobile', to: mobile, code, type, password });
    if (email !== undefined)
      return resetByCode(app, request, reply, { channel: 'email', to: email, code, type, password });
    throw new PassportError('identifierRequired');
  },
});
