import { Type } from 'typebox';
import { codeSignIn } from '../../flows/code-sign-in';
import { paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import { CodeTypeField, CommonQuery, FORM } from '../../schemas/common';
import { EmailCodeLoginBody } from '../../schemas/login';
import { flowRoute } from '../declare';

/** The sso flavour names the e-mail code purpose `ect_type`; the login takes it under either name. */
const EmailCodeLoginInput = Type.Object(
  { ...EmailCodeLoginBody.properties, ect_type: Type.Optional(CodeTypeField) },
  { additionalProperties: true },
);

export const ssoEmailCodeLogin = flowRoute({
  method: 'POST',
  schema: {
    summary: 'Sign in with an e-mail code (the purpose as type or ect_type); registers the address',
    tags: ['login'],
    consumes: FORM,
    querystring: CommonQuery,
    body: EmailCodeLoginInput,
  },
  data: AccountInfo,
  at: [['sso', paths.sso.emailCodeLogin]],
  run: (app, request, reply) => {
    const { email, code, type, ect_type } = request.body;
    return codeSignIn(app, request, reply, 'email', { to: email, code, type: type ?? ect_type });
  },
});
