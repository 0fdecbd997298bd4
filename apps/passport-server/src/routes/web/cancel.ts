import { operationRoute } from '../../adapters/operation-route';
import { requestCancellation } from '../../flows/cancel-account';
import {
  cancellationWays,
  checkCancellation,
  confirmCancellation,
  exportAccount,
} from '../../operations/account/cancellation';
import { paths } from '../../protocol';
import { CancelRequested, schema } from '../../schemas/cancel';
import { flowRoute } from '../declare';

/** Account cancellation: the operations of src/operations/account/cancellation, the proof a flow. */

export const cancelVerifyWayRoute = operationRoute(cancellationWays, {
  method: 'GET',
  schema: schema.verifyWay,
  at: [['passport', paths.passport.authCancelVerifyWay]],
});

export const cancelCheckRoute = operationRoute(checkCancellation, {
  method: 'GET',
  schema: schema.check,
  at: [['web', paths.web.cancelCheck]],
});

export const cancelRequestRoute = flowRoute({
  method: 'POST',
  schema: schema.request,
  data: CancelRequested,
  at: [['passport', paths.passport.cancelRequest]],
  run: (app, request) => requestCancellation(app, request, request.body),
});

export const cancelConfirmRoute = operationRoute(confirmCancellation, {
  method: 'POST',
  schema: schema.confirm,
  at: [['web', paths.web.cancelConfirm]],
  // Every session ended with the change; this browser's cookie goes with the answer.
  after: async (app, request, reply, { output }) => {
    if (output.state === 'pending') await app.sessions.signOut(request, reply);
    return output;
  },
});

export const cancelExportRoute = operationRoute(exportAccount, {
  method: 'GET',
  schema: schema.export,
  at: [['profile', paths.profile.getUserData]],
});
