import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { factorClockOf } from '../domain/organisations/second-factor';
import { requireSession } from '../domain/sessions/sessions';
import { PassportError } from '../errors';
import { type AuditQuery, auditCsv, ERASED, readAuditLog } from '../events/consumers/audit-log';

/** The filters every audit read accepts. */
export interface AuditFilters {
  type?: string | undefined;
  actor_user_id?: string | undefined;
  target_user_id?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

const queryOf = (input: AuditFilters): Omit<AuditQuery, 'limit'> => ({
  ...(input.type !== undefined ? { type: input.type } : {}),
  ...(input.actor_user_id !== undefined ? { actorUserId: input.actor_user_id } : {}),
  ...(input.target_user_id !== undefined ? { targetUserId: input.target_user_id } : {}),
  ...(input.from !== undefined ? { from: input.from } : {}),
  ...(input.to !== undefined ? { to: input.to } : {}),
});

const pageOf = async (app: FastifyInstance, query: AuditQuery) => {
  const { entries, next } = await readAuditLog(app.db, query);
  return { entries, next_cursor: next };
};

const before = (cursor: string | undefined) => (cursor !== undefined ? { before: cursor } : {});

/** The signed-in person's own activity: what happened to their account, newest first. */
export function accountActivity(
  app: FastifyInstance,
  request: FastifyRequest,
  input: { cursor?: string | undefined; count?: number | undefined; type?: string | undefined },
) {
  const { userId } = requireSession(request);
  return pageOf(app, {
    personId: userId,
    ...queryOf({ type: input.type }),
    ...before(input.cursor),
    limit: input.count ?? 20,
  });
}

/** Everything, for operators. */
export function operatorAudit(
  app: FastifyInstance,
  request: FastifyRequest,
  input: AuditFilters & {
    cursor?: string | undefined;
    count?: number | undefined;
    subject_id?: string | undefined;
  },
) {
  const { userId } = requireSession(request);
  if (!app.config.operators.includes(userId)) throw new PassportError('notAnOperator');
  return pageOf(app, {
    ...queryOf(input),
    ...(input.subject_id !== undefined ? { subjectId: input.subject_id } : {}),
    ...before(input.cursor),
    limit: input.count ?? 20,
  });
}

/** The subject's id, once the caller's identity in it holds audit:read. */
async function auditedSubject(app: FastifyInstance, request: FastifyRequest, subjectUid: string) {
  const { user, factorVerifiedAt } = requireSession(request);
  // A frozen organisation's manager still reads what happened in it.
  const actor = await app.organisations.actorIn(user, subjectUid, {
    frozenSubjectOk: true,
    factor: factorClockOf(app, factorVerifiedAt),
  });
  app.organisations.require(actor, 'audit:read');
  return actor.subject.id;
}

/**
 * Member names by user id, for the entries' actors and targets: a member's name now, or, for someone
 * who is no longer a member, the name they had when they were removed or left (the event keeps it).
 */
async function memberNames(app: FastifyInstance, subjectId: string, userIds: string[]) {
  if (userIds.length === 0) return {};
  const rows = await app.db
    .selectFrom('deputies')
    .select(['user_id', 'deputy_name'])
    .where('subject_id', '=', subjectId)
    .where('user_id', 'in', userIds)
    .execute();
  const names: Record<string, string> = Object.fromEntries(rows.map((row) => [row.user_id, row.deputy_name]));
  const gone = userIds.filter((id) => !(id in names));
  if (gone.length === 0) return names;
  const departures = await app.db
    .selectFrom('audit_log')
    .select(['target_user_id', 'data'])
    .where('subject_id', '=', subjectId)
    .where('type', 'in', ['organisation.member.removed', 'organisation.member.left'])
    .where('target_user_id', 'in', gone)
    .orderBy('position', 'desc')
    .execute();
  for (const { target_user_id: userId, data } of departures) {
    const then = (JSON.parse(data) as { memberName?: unknown }).memberName;
    // An erased person's name is gone with them: the log shows their pseudonymous id.
    if (userId && !(userId in names) && typeof then === 'string' && then !== ERASED) names[userId] = then;
  }
  return names;
}

/** A page of an organisation's audit log, with its members' names. */
export async function organisationAudit(
  app: FastifyInstance,
  request: FastifyRequest,
  input: AuditFilters & { sec_subject_uid: string; cursor?: string | undefined; count?: number | undefined },
) {
  const subjectId = await auditedSubject(app, request, input.sec_subject_uid);
  const page = await pageOf(app, {
    subjectId,
    ...queryOf(input),
    ...before(input.cursor),
    limit: input.count ?? 20,
  });
  const ids = new Set<string>();
  for (const entry of page.entries) {
    if ('userId' in entry.actor) ids.add(entry.actor.userId);
    if (entry.target_user_id) ids.add(entry.target_user_id);
  }
  return { ...page, names: await memberNames(app, subjectId, [...ids]) };
}

/** The most one export holds: beyond it, narrow the time range. */
export const EXPORT_LIMIT = 10_000;

/** The organisation's audit log as a file to download (CSV or JSON), answered by this handler. */
export async function exportOrganisationAudit(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  input: AuditFilters & { sec_subject_uid: string; format?: 'csv' | 'json' | undefined },
) {
  const subjectId = await auditedSubject(app, request, input.sec_subject_uid);
  const { entries } = await readAuditLog(app.db, { subjectId, ...queryOf(input), limit: EXPORT_LIMIT });
  const csv = (input.format ?? 'csv') === 'csv';
  const name = `audit-log-${new Date(app.runtime.now()).toISOString().slice(0, 10)}.${csv ? 'csv' : 'json'}`;
  await reply
    .header('content-type', csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(csv ? auditCsv(entries) : JSON.stringify({ entries }));
  return undefined;
}
