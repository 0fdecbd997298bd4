import { operationRoute } from '../../adapters/operation-route';
import {
  codeToNewManager,
  sendNewManagerCode,
  sendOldManagerCode,
  verifyNewManager,
  verifyOldManager,
} from '../../flows/manager-transfer';
import {
  abandonTransfer,
  checkNewManager,
  confirmTransfer,
  pendingTransfer,
  startTransfer,
} from '../../operations/organisation/transfer';
import { affiliatePaths as paths } from '../../protocol';
import { CodeSentData, invitationSchemas as schemas, TicketData } from '../../schemas/invitations';
import { flowRoute } from '../declare';

/**
 * The manager transfer: its changes are the operations of src/operations/organisation/transfer.ts; its
 * code steps (a code, then a ticket) are flows (src/flows/manager-transfer.ts).
 */

export const managerSendOldCode = flowRoute({
  method: 'POST',
  schema: schemas.managerSendOldCode,
  data: CodeSentData,
  at: [['aff', paths.managerSendOldCode]],
  run: (app, request) => sendOldManagerCode(app, request, request.body),
});

export const managerVerifyOld = flowRoute({
  method: 'POST',
  schema: schemas.managerVerifyOld,
  data: TicketData,
  at: [['aff', paths.managerVerifyOld]],
  run: (app, request) => verifyOldManager(app, request, request.body),
});

export const managerCheckNew = operationRoute(checkNewManager, {
  method: 'GET',
  schema: schemas.managerCheckNew,
  at: [['aff', paths.managerCheckNew]],
});

export const managerStart = operationRoute(startTransfer, {
  method: 'POST',
  schema: schemas.managerStart,
  at: [['aff', paths.managerStart]],
  // The new manager's code goes once the transfer committed, through the risk rules.
  after: async (app, request, _reply, { output }) => {
    await codeToNewManager(app, request, request.body.subject_uid);
    return output;
  },
});

export const managerSendNewCode = flowRoute({
  method: 'POST',
  schema: schemas.managerSendNewCode,
  data: CodeSentData,
  at: [['aff', paths.managerSendNewCode]],
  run: (app, request) => sendNewManagerCode(app, request, request.body),
});

export const managerVerifyNew = flowRoute({
  method: 'POST',
  schema: schemas.managerVerifyNew,
  data: TicketData,
  at: [['aff', paths.managerVerifyNew]],
  run: (app, request) => verifyNewManager(app, request, request.body),
});

export const managerTransfer = operationRoute(confirmTransfer, {
  method: 'POST',
  schema: schemas.managerTransfer,
  at: [['aff', paths.managerTransfer]],
});

export const managerAbandon = operationRoute(abandonTransfer, {
  method: 'POST',
  schema: schemas.managerAbandon,
  at: [['aff', paths.managerAbandon]],
});

export const managerPending = operationRoute(pendingTransfer, {
  method: 'GET',
  schema: schemas.managerPending,
  at: [['aff', paths.managerPending]],
});
