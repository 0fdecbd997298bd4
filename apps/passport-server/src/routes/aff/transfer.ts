import {
  abandonManagerTransfer,
  checkNewManager,
  pendingManagerTransfer,
  sendNewManagerCode,
  sendOldManagerCode,
  startManagerTransfer,
  transferManager,
  verifyNewManager,
  verifyOldManager,
} from '../../flows/manager-transfer';
import { affiliatePaths as paths } from '../../protocol';
import {
  CandidateData,
  CodeSentData,
  Flagged,
  PendingData,
  invitationSchemas as schemas,
  TicketData,
  TransferData,
} from '../../schemas/invitations';
import { DeputyData } from '../../schemas/organisations';
import { flowRoute } from '../declare';

/** The manager transfer (flows/manager-transfer), issue 13. */

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

export const managerCheckNew = flowRoute({
  method: 'GET',
  schema: schemas.managerCheckNew,
  data: CandidateData,
  at: [['aff', paths.managerCheckNew]],
  run: (app, request) => checkNewManager(app, request, request.query),
});

export const managerStart = flowRoute({
  method: 'POST',
  schema: schemas.managerStart,
  data: TransferData,
  at: [['aff', paths.managerStart]],
  run: (app, request) => startManagerTransfer(app, request, request.body),
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

export const managerTransfer = flowRoute({
  method: 'POST',
  schema: schemas.managerTransfer,
  data: DeputyData,
  at: [['aff', paths.managerTransfer]],
  run: (app, request) => transferManager(app, request, request.body),
});

export const managerAbandon = flowRoute({
  method: 'POST',
  schema: schemas.managerAbandon,
  data: Flagged,
  at: [['aff', paths.managerAbandon]],
  run: (app, request) => abandonManagerTransfer(app, request, request.body),
});

export const managerPending = flowRoute({
  method: 'GET',
  schema: schemas.managerPending,
  data: PendingData,
  at: [['aff', paths.managerPending]],
  run: (app, request) => pendingManagerTransfer(app, request, request.query),
});
