import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type TProperties, Type } from 'typebox';
import { type MonitorBatchInput, MonitorBatchSchema, rowsOf } from '../../domain/monitoring/batch';
import { requireSession } from '../../domain/sessions/sessions';
import { PassportError } from '../../errors';
import { rateLimitKey } from '../../lib/ip';
import { HOUR } from '../../limits';
import { createWebId, paths, webSuccess } from '../../protocol';
import { CommonQuery, webResponses } from '../../schemas/common';

/** The operator's dashboard (web app page `monitoring`, docs/monitoring.md). */
export const DASHBOARD_PATH = '/monitor/dashboard/';

/** A batch of 20 events with full stacks stays below this; anything larger is refused with 413. */
export const BATCH_BODY_LIMIT = 64 * 1024;
/** The longest range the dashboard reads at once. */
const MAX_DAYS = 93;
const DAY = 86_400_000;

/** Throws NOT_LOGGED_IN or NOT_AN_OPERATOR unless the session's user is in OPERATOR_USER_IDS. */
export function requireOperator(app: FastifyInstance, request: FastifyRequest): string {
  const session = requireSession(request);
  if (!app.config.operators.includes(session.userId)) throw new PassportError('notAnOperator');
  return session.userId;
}

const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD (UTC)' });

const dashboardQuery = Type.Intersect([
  CommonQuery,
  Type.Object({
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    app: Type.Optional(Type.String({ maxLength: 64 })),
    flavour: Type.Optional(Type.String({ maxLength: 32 })),
  }),
]);

/** A day and a count of it: the rows of the dashboard's series. */
const Daily = <P extends TProperties>(fields: P) =>
  Type.Array(Type.Object({ day: Type.String(), ...fields }));
export const MonitorDashboard = Type.Object({
  from: Type.String(),
  to: Type.String(),
  apps: Type.Array(Type.String(), { description: 'the apps seen in the range (a filter’s choices)' }),
  flavours: Type.Array(Type.String()),
  funnel: Daily({
    app: Type.String(),
    method: Type.String(),
    visits: Type.Number({ description: 'weighted by 1 / the sample rate' }),
    code_sent: Type.Number(),
    signed_in: Type.Number(),
    failed: Type.Number(),
    drop_off_visit: Type.Number({ description: '0–1' }),
    drop_off_code: Type.Number({ description: '0–1' }),
    failures: Type.Array(Type.Object({ error_code: Type.Number(), count: Type.Number() })),
  }),
  errors: Daily({ message: Type.String(), count: Type.Number() }),
  vitals: Daily({ name: Type.String(), p75: Type.Number(), count: Type.Number() }),
  sdk: Daily({
    path: Type.String(),
    calls: Type.Number(),
    errors: Type.Number(),
    error_rate: Type.Number(),
    p75_ms: Type.Number(),
  }),
});

/**
 * The collector (spec §7: "monitoring batches are posted", the event-list POST and the web-id POST)
 * and the operator's dashboard data. docs/monitoring.md has the reasons.
 *
 * The batch routes take the body as JSON whatever its type says (`sendBeacon` posts text/plain, a
 * type that needs no preflight) and carry no CSRF token: the monitor sends without credentials, the
 * collector reads no cookie and acts for nobody, and what it writes is anonymous and capped. Every
 * batch is checked against the MonitorBatch schema, capped at 64 KiB and 20 events, and counted per
 * client address (429 past monitorBatchesPerIpPerMinute); refusals are 4xx envelopes.
 */
const monitorRoutes: FastifyPluginAsync = async (app) => {
  const { store, runtime } = app;

  // The batch scope: its own parser for text/plain (the root refuses text/plain; CVE-2022-41919 is
  // about routes that trust the CSRF defence of a preflight, which these do not rely on).
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'text/plain',
      { parseAs: 'string', bodyLimit: BATCH_BODY_LIMIT },
      scope.getDefaultJsonParser('error', 'error'),
    );

    const flood = async (request: FastifyRequest) => {
      const key = `monitor:ip:${rateLimitKey(request.ip)}`;
      if ((await store.incr(key, 60_000)) > runtime.limits.monitorBatchesPerIpPerMinute)
        throw new PassportError('rateLimited');
    };

    const collect = async (request: FastifyRequest) => {
      const rows = rowsOf(request.body as MonitorBatchInput, runtime.now());
      await app.monitoring.store.insert(rows);
      return webSuccess({ accepted: rows.length });
    };

    for (const [url, summary] of [
      [
        paths.monitor.monitorBatch,
        'Monitoring: one batch of at most 20 events (JSON, sent as text/plain by sendBeacon)',
      ],
      [
        paths.monitor.monitorEventList,
        'Monitoring: the event-list POST, the same batch format as monitor/batch',
      ],
    ] as const) {
      scope.post(
        url,
        {
          bodyLimit: BATCH_BODY_LIMIT,
          schema: {
            summary,
            tags: ['monitoring'],
            consumes: ['text/plain', 'application/json'],
            querystring: CommonQuery,
            body: MonitorBatchSchema,
            response: webResponses(Type.Object({ accepted: Type.Integer() })),
          },
          config: { csrf: false, envelope: 'web' },
          onRequest: flood,
        },
        collect,
      );
    }
  });

  app.post(
    paths.monitor.webId,
    {
      schema: {
        summary: 'A fresh s_v_web_id value (a device hint, never proof of anything)',
        tags: ['monitoring'],
        querystring: CommonQuery,
        body: Type.Object({}, { additionalProperties: true }),
        response: webResponses(Type.Object({ web_id: Type.String() })),
      },
      config: { envelope: 'web' },
    },
    async (request) => {
      if (
        (await store.incr(`webid:ip:${rateLimitKey(request.ip)}`, HOUR)) > runtime.limits.webIdsPerIpPerHour
      )
        throw new PassportError('rateLimited');
      return webSuccess({ web_id: createWebId(runtime.now()) });
    },
  );

  app.get(
    DASHBOARD_PATH,
    {
      schema: {
        summary: 'Monitoring dashboard data for operators: sign-in funnel, errors, vitals p75, SDK calls',
        tags: ['monitoring'],
        querystring: dashboardQuery,
        response: webResponses(MonitorDashboard),
      },
      config: { envelope: 'web' },
    },
    async (request) => {
      requireOperator(app, request);
      const query = request.query as { from?: string; to?: string; app?: string; flavour?: string };
      const to = query.to ?? new Date(runtime.now()).toISOString().slice(0, 10);
      const from = query.from ?? new Date(Date.parse(to) - 6 * DAY).toISOString().slice(0, 10);
      const span = (Date.parse(to) - Date.parse(from)) / DAY;
      if (!Number.isFinite(span) || span < 0 || span >= MAX_DAYS)
        throw new PassportError('invalidParam', { field: 'querystring/from' });
      return webSuccess(
        await app.monitoring.dashboard({
          from,
          to,
          ...(query.app ? { app: query.app } : {}),
          ...(query.flavour ? { flavour: query.flavour } : {}),
        }),
      );
    },
  );
};

export default monitorRoutes;
