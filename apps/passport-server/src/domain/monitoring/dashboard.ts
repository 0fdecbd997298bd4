import type { FunnelRow, MonitorDashboardData } from '../../protocol';
import type { GroupCount, MonitorFilter, MonitorStore, WeightedValue } from './store';

/** At most this many rows of values are read per kind for percentiles (sampling keeps it small). */
const VALUE_ROWS = 50_000;

/** The weighted 75th percentile: the smallest value with at least 75 % of the weight at or below it. */
export function weightedP75(values: readonly { value: number; weight: number }[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, v) => sum + v.weight, 0);
  let seen = 0;
  for (const v of sorted) {
    seen += v.weight;
    if (seen >= total * 0.75) return v.value;
  }
  return sorted[sorted.length - 1]?.value ?? 0;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Groups values by `day|key`. */
function byDayAndKey(values: readonly WeightedValue[]) {
  const groups = new Map<string, WeightedValue[]>();
  for (const v of values) {
    const id = `${v.day}|${v.key}`;
    const list = groups.get(id);
    if (list) list.push(v);
    else groups.set(id, [v]);
  }
  return groups;
}

/**
 * The sign-in funnel per day, app and method: visits (the method shown), code sent, signed in, with
 * the drop-off between them and the failure codes behind it.
 */
export function funnelRows(steps: readonly GroupCount[], failures: readonly GroupCount[]): FunnelRow[] {
  const rows = new Map<string, FunnelRow>();
  const rowOf = (day: string, key: string) => {
    const id = `${day}|${key}`;
    let row = rows.get(id);
    if (!row) {
      const [app = '', method = ''] = key.split('|');
      row = {
        day,
        app,
        method,
        visits: 0,
        code_sent: 0,
        signed_in: 0,
        failed: 0,
        drop_off_visit: 0,
        drop_off_code: 0,
        failures: [],
      };
      rows.set(id, row);
    }
    return row;
  };
  for (const s of steps) {
    const row = rowOf(s.day, s.key);
    if (s.sub === 'method_shown') row.visits += s.count;
    else if (s.sub === 'code_sent') row.code_sent += s.count;
    else if (s.sub === 'signed_in') row.signed_in += s.count;
    else if (s.sub === 'failed') row.failed += s.count;
  }
  for (const f of failures)
    rowOf(f.day, f.key).failures.push({ error_code: Number(f.sub), count: round(f.count) });
  const out = [...rows.values()];
  for (const row of out) {
    // A method without codes (password, QR) goes from visit to sign-in: its code step is the visit.
    const afterVisit = row.code_sent || row.signed_in;
    row.drop_off_visit = row.visits ? round(Math.max(0, 1 - afterVisit / row.visits), 4) : 0;
    row.drop_off_code = row.code_sent ? round(Math.max(0, 1 - row.signed_in / row.code_sent), 4) : 0;
    row.failures.sort((a, b) => b.count - a.count || a.error_code - b.error_code);
    row.visits = round(row.visits);
    row.code_sent = round(row.code_sent);
    row.signed_in = round(row.signed_in);
    row.failed = round(row.failed);
  }
  return out.sort(
    (a, b) => a.day.localeCompare(b.day) || a.app.localeCompare(b.app) || a.method.localeCompare(b.method),
  );
}

/** Everything the operator's dashboard shows for a range of days. */
export async function dashboard(store: MonitorStore, filter: MonitorFilter): Promise<MonitorDashboardData> {
  const [steps, failures, errorCounts, vitalValues, httpCounts, httpValues, sources] = await Promise.all([
    store.funnelSteps(filter),
    store.funnelFailures(filter),
    store.countsByLabel(filter, 'js_error', 500),
    store.valuesByLabel(filter, 'web_vital', VALUE_ROWS),
    store.countsByLabel(filter, 'http', 2000),
    store.valuesByLabel(filter, 'http', VALUE_ROWS),
    store.sources(filter),
  ]);

  const vitals = [...byDayAndKey(vitalValues)].map(([id, values]) => {
    const [day = '', name = ''] = id.split('|');
    return {
      day,
      name,
      p75: round(weightedP75(values), name === 'CLS' ? 4 : 0),
      count: round(values.reduce((s, v) => s + v.weight, 0)),
    };
  });

  const latency = byDayAndKey(httpValues);
  const sdk = new Map<string, MonitorDashboardData['sdk'][number]>();
  for (const c of httpCounts) {
    const id = `${c.day}|${c.key}`;
    let row = sdk.get(id);
    if (!row) {
      row = { day: c.day, path: c.key, calls: 0, errors: 0, error_rate: 0, p75_ms: 0 };
      sdk.set(id, row);
    }
    row.calls += c.count;
    if (c.sub === 'error') row.errors += c.count;
  }
  for (const [id, row] of sdk) {
    row.error_rate = row.calls ? round(row.errors / row.calls, 4) : 0;
    row.calls = round(row.calls);
    row.errors = round(row.errors);
    row.p75_ms = Math.round(weightedP75(latency.get(id) ?? []));
  }

  return {
    from: filter.from,
    to: filter.to,
    apps: sources.apps,
    flavours: sources.flavours,
    funnel: funnelRows(steps, failures),
    errors: errorCounts
      .map((e) => ({ day: e.day, message: e.key, count: round(e.count) }))
      .sort((a, b) => a.day.localeCompare(b.day) || b.count - a.count),
    vitals: vitals.sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name)),
    sdk: [...sdk.values()].sort((a, b) => a.day.localeCompare(b.day) || b.calls - a.calls),
  };
}
