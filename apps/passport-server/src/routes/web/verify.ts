import { emailOf, mobileOf } from '../../domain/accounts/targets';
import { ticketForCode } from '../../flows/check-code';
import { paths } from '../../protocol';
import { emailCheckCodeSchema, mobileCheckCodeSchema, TicketData } from '../../schemas/verify';
import { flowRoute } from '../declare';

/** validate_code and mobile/check_code (SMS): code → verify ticket. */
export const mobileCheckCode = flowRoute({
  method: 'POST',
  schema: mobileCheckCodeSchema,
  data: TicketData,
  at: [
    ['web', paths.web.validateCode],
    ['web', paths.web.mobileCheckCode],
    ['mobile', paths.mobile.checkCode],
  ],
  run: (app, request) =>
    ticketForCode(app, request, {
      channel: 'mobile',
      target: mobileOf(app, request.body.mobile),
      purpose: request.body.type,
      code: request.body.code,
    }),
});

/** email/check_code and email/verify: code → verify ticket. */
export const emailCheckCode = flowRoute({
  method: 'POST',
  schema: emailCheckCodeSchema,
  data: TicketData,
  at: [
    ['web', paths.web.emailCheckCode],
    ['web', paths.web.emailVerify],
  ],
  run: (app, request) =>
    ticketForCode(app, request, {
      channel: 'email',
      target: emailOf(request.body.email),
      purpose: request.body.type ?? request.body.ect_type,
      code: request.body.code,
    }),
});
