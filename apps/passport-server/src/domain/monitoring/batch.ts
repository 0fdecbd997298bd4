import { type Static, Type } from 'typebox';
import { v7 as timeOrderedUuid } from 'uuid';
import type { MonitorEventsTable } from '../../db/schema';

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
      return `${event.name ?? 'Error'}: ${event.message ?? ''}`.slice(0, 300);
    case 'http':
      return event.path ?? null;
    case 'web_vital':
      return event.name ?? null;
    case 'resource':
    case 'resource_error':
    case 'captcha':
      return (event.url ?? '').slice(0, 300) || null;
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
 * The rows a batch becomes. An event's time is trusted only within a day of the receipt (a wrong
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
      weight: 1 / event.rate,
      page: event.page.slice(0, 300),
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
