import { accountActivity, operatorAudit } from '../../flows/audit-log';
import { paths } from '../../protocol';
import { AuditPage, schemas } from '../../schemas/audit';
import { flowRoute } from '../declare';

/** The signed-in person's own security activity (the account centre's "recent security activity"). */
export const accountActivityRoute = flowRoute({
  method: 'GET',
  schema: schemas.accountActivity,
  data: AuditPage,
  at: [['web', paths.web.accountActivity]],
  run: (app, request) => accountActivity(app, request, request.query),
});

/** Every audit entry, for operators. */
export const operatorAuditRoute = flowRoute({
  method: 'GET',
  schema: schemas.operatorAudit,
  data: AuditPage,
  at: [['web', paths.web.operatorAudit]],
  run: (app, request) => operatorAudit(app, request, request.query),
});
