import { sendCode } from '../../flows/send-code';
import { paths } from '../../protocol';
import { CommonQuery, FORM } from '../../schemas/common';
import { SendCodeBody, SendCodeData } from '../../schemas/send-code';
import { flowRoute } from '../declare';

/** Send a code by SMS to `mobile` (no second-verification key outside the web family). */
export const sendMobileCode = flowRoute({
  method: 'POST',
  schema: {
    summary: 'Send a one-time code by SMS',
    tags: ['codes'],
    consumes: FORM,
    querystring: CommonQuery,
    body: SendCodeBody,
  },
  data: SendCodeData,
  at: [
    ['sso', paths.sso.sendCode],
    ['legacy', paths.legacy.sendActivationCode],
    ['mobile', paths.mobile.sendCode],
  ],
  run: (app, request) => {
    const { mobile, type } = request.body;
    return sendCode(app, request, { channel: 'mobile', to: mobile, type });
  },
});
