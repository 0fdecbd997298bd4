import { emailOf, mobileOf } from '../../domain/accounts/targets';
import { checkRegistered } from '../../flows/check-registered';
import { paths } from '../../protocol';
import {
  checkEmailRegisteredSchema,
  checkMobileRegisteredSchema,
  RegisteredAnswer,
} from '../../schemas/register';
import { flowRoute } from '../declare';

/** user/check_mobile_registered: whether a mobile number has an account (limited: flows/check-registered). */
export const checkMobileRegistered = flowRoute({
  method: 'POST',
  schema: checkMobileRegisteredSchema,
  data: RegisteredAnswer,
  at: [['web', paths.web.userCheckMobileRegistered]],
  run: (app, request) =>
    checkRegistered(app, request, () => ({ kind: 'mobile', value: mobileOf(app, request.body.mobile) })),
});

/** user/check_email_registered: whether an e-mail address has an account. */
export const checkEmailRegistered = flowRoute({
  method: 'POST',
  schema: checkEmailRegisteredSchema,
  data: RegisteredAnswer,
  at: [['web', paths.web.userCheckEmailRegistered]],
  run: (app, request) =>
    checkRegistered(app, request, () => ({ kind: 'email', value: emailOf(request.body.email) })),
});
