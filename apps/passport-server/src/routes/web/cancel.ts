import { Type } from 'typebox';
import {
  cancelVerifyWay,
  checkCancellation,
  confirmCancellation,
  exportData,
  requestCancellation,
} from '../../flows/cancel-account';
import { paths } from '../../protocol';
import { CancelCheck, CancelConfirmed, CancelRequested, CancelWays, schema } from '../../schemas/cancel';
import { flowRoute } from '../declare';

/** Account cancellation (issue 17; flows/cancel-account). */

export const cancelVerifyWayRoute = flowRoute({
  method: 'GET',
  schema: schema.verifyWay,
  data: CancelWays,
  at: [['passport', paths.passport.authCancelVerifyWay]],
  run: async (_app, request) => cancelVerifyWay(request),
});

export const cancelCheckRoute = flowRoute({
  method: 'GET',
  schema: schema.check,
  data: CancelCheck,
  at: [['web', paths.web.cancelCheck]],
  run: (app, request) => checkCancellation(app, request),
});

export const cancelRequestRoute = flowRoute({
  method: 'POST',
  schema: schema.request,
  data: CancelRequested,
  at: [['passport', paths.passport.cancelRequest]],
  run: (app, request) => requestCancellation(app, request, request.body),
});

export const cancelConfirmRoute = flowRoute({
  method: 'POST',
  schema: schema.confirm,
  data: CancelConfirmed,
  at: [['web', paths.web.cancelConfirm]],
  run: (app, request, reply) => confirmCancellation(app, request, reply, request.body),
});

export const cancelExportRoute = flowRoute({
  method: 'GET',
  schema: schema.export,
  data: Type.Record(Type.String(), Type.Unknown()),
  at: [['profile', paths.profile.getUserData]],
  run: (app, request) => exportData(app, request),
});
