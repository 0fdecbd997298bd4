import { Type } from 'typebox';
import { exportOrganisationAudit, organisationAudit } from '../../flows/audit-log';
import { affiliatePaths as paths } from '../../protocol';
import { OrganisationAuditPage, schemas } from '../../schemas/audit';
import { WebFailure } from '../../schemas/common';
import { flowRoute } from '../declare';

/** The organisation's audit log (flows/audit-log). */

export const auditList = flowRoute({
  method: 'GET',
  schema: schemas.auditList,
  data: OrganisationAuditPage,
  at: [['aff', paths.auditList]],
  run: (app, request) => organisationAudit(app, request, request.query),
});

export const auditExport = flowRoute({
  method: 'GET',
  schema: schemas.auditExport,
  data: Type.Object({}),
  responses: {
    // A business failure is still the envelope's, on a 200.
    200: Type.Union([
      Type.String({ description: 'the entries as CSV (text/csv) or JSON (application/json)' }),
      WebFailure,
    ]),
  },
  at: [['aff', paths.auditExport]],
  run: (app, request, reply) => exportOrganisationAudit(app, request, reply, request.query),
});
