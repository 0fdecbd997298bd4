import { operationRoute } from '../../adapters/operation-route';
import { OWNER_LANE } from '../../domain/codes/codes';
import { chargeFactorGuess, refundFactorGuess } from '../../domain/factors/factors';
import {
  confirmTotpEnrolment,
  generateRecoveryCodeSet,
  listFactors,
  removeTotpFactor,
  startTotpEnrolment,
} from '../../operations/account/factors';
import { paths } from '../../protocol';
import { schema } from '../../schemas/factors';

/** Authenticator apps and recovery codes (src/operations/account/factors.ts, docs/factors.md). */

export const factorList = operationRoute(listFactors, {
  method: 'GET',
  schema: schema.factorList,
  at: [['web', paths.web.factorList]],
});

export const totpStart = operationRoute(startTotpEnrolment, {
  method: 'POST',
  schema: schema.totpStart,
  at: [['web', paths.web.totpStart]],
});

export const totpConfirm = operationRoute(confirmTotpEnrolment, {
  method: 'POST',
  schema: schema.totpConfirm,
  at: [['web', paths.web.totpConfirm]],
  // The guess is charged before the operation compares (a store counter, outside its transaction) and
  // given back once a right code has committed: a wrong one keeps its charge, as a one-time code's does.
  check: (app, _request, user) => chargeFactorGuess(app, user.id, OWNER_LANE),
  after: async (app, _request, _reply, { output, principal }) => {
    if (principal.kind === 'person') await refundFactorGuess(app, principal.user.id, OWNER_LANE);
    return output;
  },
});

export const totpRemove = operationRoute(removeTotpFactor, {
  method: 'POST',
  schema: schema.totpRemove,
  at: [['web', paths.web.totpRemove]],
});

export const recoveryCodeGenerate = operationRoute(generateRecoveryCodeSet, {
  method: 'POST',
  schema: schema.recoveryCodeGenerate,
  at: [['web', paths.web.recoveryCodeGenerate]],
});

export const FACTOR_ROUTES = [factorList, totpStart, totpConfirm, totpRemove, recoveryCodeGenerate];
