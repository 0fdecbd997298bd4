import { PassportError } from '../../errors';
import {
  putIdentifier,
  setAccount,
  verifyByCode,
  verifyByFactor,
  verifyByPassword,
} from '../../flows/identifiers';
import { paths } from '../../protocol';
import { AccountInfo } from '../../schemas/account';
import {
  accountVerifySchema,
  authVerifySchema,
  emailBindSchema,
  emailChangeSchema,
  IdentifierChanged,
  mobileBindSchema,
  mobileChangeSchema,
  setAccountSchema,
  Verified,
} from '../../schemas/identifiers';
import { flowRoute } from '../declare';

/** Binding and changing mobile and e-mail, proving it is you, set account; flows/identifiers. */

export const mobileBind = flowRoute({
  method: 'POST',
  schema: mobileBindSchema,
  data: IdentifierChanged,
  at: [
    ['web', paths.web.mobileBind],
    ['mobile', paths.mobile.bind],
    ['legacy', paths.legacy.bindMobile],
  ],
  run: (app, request) => {
    const { mobile, ...rest } = request.body;
    return putIdentifier(app, request, 'bind', { channel: 'mobile', to: mobile, ...rest });
  },
});

export const mobileChange = flowRoute({
  method: 'POST',
  schema: mobileChangeSchema,
  data: IdentifierChanged,
  at: [
    ['web', paths.web.mobileChange],
    ['mobile', paths.mobile.change],
    ['legacy', paths.legacy.changeMobile],
  ],
  run: (app, request) => {
    const { mobile, ...rest } = request.body;
    return putIdentifier(app, request, 'change', { channel: 'mobile', to: mobile, ...rest });
  },
});

export const emailBind = flowRoute({
  method: 'POST',
  schema: emailBindSchema,
  data: IdentifierChanged,
  at: [['web', paths.web.emailBind]],
  run: (app, request) => {
    const { email, ...rest } = request.body;
    return putIdentifier(app, request, 'bind', { channel: 'email', to: email, ...rest });
  },
});

export const emailChange = flowRoute({
  method: 'POST',
  schema: emailChangeSchema,
  data: IdentifierChanged,
  at: [['web', paths.web.emailChange]],
  run: (app, request) => {
    const { email, ...rest } = request.body;
    return putIdentifier(app, request, 'change', { channel: 'email', to: email, ...rest });
  },
});

export const authVerify = flowRoute({
  method: 'POST',
  schema: authVerifySchema,
  data: Verified,
  at: [['web', paths.web.authVerify]],
  run: async (app, request) => {
    const { method, mobile, email, code, credential, type, purpose } = request.body;
    if (method !== undefined && method !== 'sms' && method !== 'email')
      return verifyByFactor(app, request, { method, code, credential, purpose });
    if (code === undefined) throw new PassportError('invalidParam', { field: 'code' });
    if (mobile !== undefined)
      return verifyByCode(app, request, { channel: 'mobile', to: mobile, code, type, purpose });
    if (email !== undefined)
      return verifyByCode(app, request, { channel: 'email', to: email, code, type, purpose });
    throw new PassportError('identifierRequired');
  },
});

export const accountVerify = flowRoute({
  method: 'POST',
  schema: accountVerifySchema,
  data: Verified,
  at: [['web', paths.web.accountVerify]],
  run: (app, request) => verifyByPassword(app, request, request.body),
});

export const accountSet = flowRoute({
  method: 'POST',
  schema: setAccountSchema,
  data: AccountInfo,
  at: [['passport', paths.passport.accountSet]],
  run: (app, request) => setAccount(app, request, request.body),
});
