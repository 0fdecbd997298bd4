import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/domain/monitoring/batch';
import { weightedP75 } from '../src/domain/monitoring/dashboard';
import { databaseMonitorStore, MONITOR_INSERT_SQL } from '../src/domain/monitoring/store';
import { monitorWriter } from '../src/domain/monitoring/writer';
import { ErrorCode, paths } from '../src/protocol';
import { BATCH_BODY_LIMIT, DASHBOARD_PATH } from '../src/routes/monitor/index';
import { signInBySms } from './support/flows';
import { type Browser, backend, startServer, type TestServer } from './support/server';

/**
 * Issue 18: the monitoring collector (batches, the event-list POST, the web-id POST), its refusals,
 * the dashboard's aggregation for operators and the retention sweep, on the injectable clock.
 */

const DAY = 86_400_000;
/** 2026-11-20 12:00 UTC. */
const START = Date.UTC(2026, 10, 20, 12);
let now = START;

let server: TestServer;
let operator: Browser;
let member: Browser;

beforeAll(async () => {
  server = await startServer(
    { monitorRetentionDays: 30 },
    { now: () => now, limits: { monitorBatchesPerIpPerMinute: 5 } },
  );
  operator = server.browser();
  const { userId } = await signInBySms(server, operator);
  server.app.config.operators.push(userId);
  member = server.browser();
  await signInBySms(server, member);
});
afterAll(async () => server.close());

let sessionCounter = 0;
/** A batch as @portico/monitor posts it. */
function batch(events: Record<string, unknown>[], fields: Record<string, unknown> = {}) {
  sessionCounter += 1;
  return {
    v: 1,
    session: `s${String(sessionCounter).padStart(31, '0')}`,
    app: '1128',
    flavour: 'web',
    seq: 0,
    sent_at: now,
    events: events.map((e) => ({ time: now, page: '/login', rate: 1, ...e })),
    ...fields,
  };
}

let address = 0;
/** Posts a batch the way sendBeacon does: text/plain, no cookie, no CSRF header, a fresh address. */
async function post(body: unknown, options: { type?: string; url?: string; from?: string } = {}) {
  address += 1;
  return server.app.inject({
    method: 'POST',
    url: options.url ?? paths.monitor.monitorBatch,
    headers: { 'content-type': options.type ?? 'text/plain;charset=UTF-8' },
    remoteAddress: options.from ?? `10.77.${address >> 8}.${address & 255 || 1}`,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const funnel = (step: string, method: string, extra: Record<string, unknown> = {}) => ({
  kind: 'funnel',
  step,
  method,
  ...extra,
});

/** The database once the events the collector accepted are written (they wait up to 250 ms). */
const stored = async () => {
  await server.app.monitoring.store.flush();
  return server.app.monitoring.db;
};

const count = async () =>
  Number(
    (
      await (
        await stored()
      )
        .selectFrom('monitor_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the collector', () => {
  it('keeps a batch posted as text/plain without credentials, and one as JSON', async () => {
    const before = await count();
    const beacon = await post(batch([funnel('method_shown', 'mobile_code')]));
    expect(beacon.statusCode).toBe(200);
    expect(beacon.json()).toEqual({ message: 'success', data: { accepted: 1 } });
    const json = await post(batch([{ kind: 'page_view', navigation: 'load', from: '' }]), {
      type: 'application/json',
    });
    expect(json.json().data.accepted).toBe(1);
    const list = await post(batch([{ kind: 'page_view', navigation: 'push', from: '/' }]), {
      url: paths.monitor.monitorEventList,
    });
    expect(list.json().data.accepted).toBe(1);
    expect(await count()).toBe(before + 3);
  });

  it('refuses malformed batches with a 400 envelope and keeps nothing', async () => {
    const before = await count();
    for (const bad of [
      '{"v":1,',
      'v=1&events=1',
      JSON.stringify({ ...batch([funnel('signed_in', 'password')]), v: 2 }),
      JSON.stringify(batch([])),
      JSON.stringify(batch(Array.from({ length: 21 }, () => funnel('code_sent', 'mobile_code')))),
      JSON.stringify(batch([{ kind: 'nope' }])),
      JSON.stringify(batch([funnel('signed_in', 'password', { rate: 0 })])),
      JSON.stringify({ ...batch([funnel('signed_in', 'password')]), extra: 1 }),
      JSON.stringify(batch([{ kind: 'js_error', message: 'x'.repeat(1001) }])),
      '{"__proto__":{"polluted":1}}',
    ]) {
      const response = await post(bad);
      expect(response.statusCode, bad.slice(0, 80)).toBe(400);
      expect(response.json().data.error_code).toBe(ErrorCode.invalidParam);
    }
    expect(await count()).toBe(before);
  });

  it('refuses an oversized body with 413 and a multipart one with 415', async () => {
    const huge = JSON.stringify(batch([{ kind: 'js_error', stack: 'x'.repeat(BATCH_BODY_LIMIT) }]));
    const response = await post(huge);
    expect(response.statusCode).toBe(413);
    expect(response.json().data.error_code).toBe(ErrorCode.payloadTooLarge);
    const multipart = await post('--x--', { type: 'multipart/form-data; boundary=x' });
    expect(multipart.statusCode).toBe(415);
  });

  it('refuses a flood from one address with 429 while other addresses go on', async () => {
    const from = '10.78.0.1';
    const answers: number[] = [];
    for (let i = 0; i < 7; i++)
      answers.push((await post(batch([funnel('code_sent', 'x')]), { from })).statusCode);
    expect(answers.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.slice(5)).toEqual([429, 429]);
    // Other addresses go on; the hosts of one IPv6 /64 are one client.
    expect((await post(batch([funnel('code_sent', 'x')]), { from: '2001:db8:1:2::1' })).statusCode).toBe(200);
    const v6: number[] = [];
    for (let i = 1; i <= 6; i++)
      v6.push((await post(batch([funnel('code_sent', 'x')]), { from: `2001:db8:9:9::${i}` })).statusCode);
    expect(v6).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await post('{}', { from })).json().data.error_code).toBe(ErrorCode.rateLimited);
    expect((await post(batch([funnel('code_sent', 'x')]))).statusCode).toBe(200);
  });

  it('turns funnel fields that are not tokens into "other" and clamps a wrong page clock to the receipt', async () => {
    const session = `k${'1'.repeat(31)}`;
    await post({ ...batch([funnel('signed_in', 'a b <script>', { time: now + 10 * DAY })]), session });
    const row = await (await stored())
      .selectFrom('monitor_events')
      .selectAll()
      .where('session', '=', session)
      .executeTakeFirstOrThrow();
    expect(row.method).toBe('other');
    expect(row.at).toBe(now);
  });

  it('answers the web-id POST with a fresh s_v_web_id (CSRF-checked like every POST)', async () => {
    const a = await member.post(paths.monitor.webId);
    const b = await member.post(paths.monitor.webId);
    expect(a.body.data.web_id).toMatch(/^verify_[0-9a-z]{6,12}_[0-9a-f]{32}$/);
    expect(a.body.data.web_id).not.toBe(b.body.data.web_id);
    member.sendCsrf = false;
    const forged = await member.post(paths.monitor.webId);
    member.sendCsrf = true;
    expect(forged.body.data.error_code).toBe(ErrorCode.csrfFailed);
  });
});

describe('the dashboard', () => {
  const day1 = '2026-11-25';
  const day2 = '2026-11-26';

  beforeAll(async () => {
    now = Date.parse(`${day1}T10:00:00Z`);
    // Day 1, app 1128 on the web: 4 visits by mobile code, 3 codes sent, 1 signed in, 2 failures.
    for (let i = 0; i < 4; i++) {
      const events = [funnel('method_shown', 'mobile_code')];
      if (i < 3) events.push(funnel('code_sent', 'mobile_code'));
      if (i === 0) events.push(funnel('signed_in', 'mobile_code'));
      if (i === 1) events.push(funnel('failed', 'mobile_code', { error_code: 1301 }));
      if (i === 2) events.push(funnel('failed', 'mobile_code', { error_code: 1301 }));
      await post(batch(events));
    }
    // Password: one visit, one sign-in; and the sso app.
    await post(batch([funnel('method_shown', 'password'), funnel('signed_in', 'password')]));
    await post(batch([funnel('method_shown', 'email_code')], { app: 'sso-app', flavour: 'sso' }));
    // Errors: one message from two sessions, another once; page views are sampled at 0.5 (weight 2).
    const error = (message: string) => ({
      kind: 'js_error',
      source: 'error',
      name: 'TypeError',
      message,
      stack: '',
      fingerprint: 'f1',
    });
    await post(batch([error('x is undefined')]));
    await post(batch([error('x is undefined'), error('boom')]));
    // Vitals: LCP 1000..4000 ms; sampled at 0.1, so each counts 10.
    const vital = (value: number) => ({
      kind: 'web_vital',
      name: 'LCP',
      value,
      rating: 'good',
      navigation_type: 'navigate',
      rate: 0.1,
    });
    await post(batch([vital(1000), vital(2000), vital(3000), vital(4000)]));
    // SDK calls: 3 successes sampled at 0.01 (100 each) and 2 failures at rate 1.
    const http = (duration: number, error_code: number, rate: number) => ({
      kind: 'http',
      method: 'POST',
      path: '/passport/web/sms_login/',
      status: 200,
      duration_ms: duration,
      error_code,
      log_id: '',
      rate,
    });
    await post(
      batch([
        http(100, 0, 0.01),
        http(200, 0, 0.01),
        http(300, 0, 0.01),
        http(900, 1301, 1),
        http(800, -1, 1),
      ]),
    );
    now = Date.parse(`${day2}T10:00:00Z`);
    await post(batch([funnel('method_shown', 'mobile_code'), funnel('code_sent', 'mobile_code')]));
  });

  const get = (browser: Browser, query: string) => browser.get(`${DASHBOARD_PATH}?${query}`);

  it('is for operators only', async () => {
    expect((await get(server.browser(), `from=${day1}&to=${day2}`)).body.data.error_code).toBe(
      ErrorCode.notLoggedIn,
    );
    expect((await get(member, `from=${day1}&to=${day2}`)).body.data.error_code).toBe(ErrorCode.notAnOperator);
  });

  it('shows the sign-in funnel per day, app and method with drop-off and the failure codes', async () => {
    const { data } = (await get(operator, `from=${day1}&to=${day2}`)).body;
    expect(data.apps).toEqual(['1128', 'sso-app']);
    expect(data.flavours).toEqual(['sso', 'web']);
    const mobile = data.funnel.find(
      (r: { day: string; app: string; method: string }) =>
        r.day === day1 && r.app === '1128' && r.method === 'mobile_code',
    );
    expect(mobile).toEqual({
      day: day1,
      app: '1128',
      method: 'mobile_code',
      visits: 4,
      code_sent: 3,
      signed_in: 1,
      failed: 2,
      drop_off_visit: 0.25,
      drop_off_code: 0.6667,
      failures: [{ error_code: 1301, count: 2 }],
    });
    const password = data.funnel.find(
      (r: { day: string; method: string }) => r.day === day1 && r.method === 'password',
    );
    expect(password).toMatchObject({ visits: 1, code_sent: 0, signed_in: 1, drop_off_visit: 0 });
    expect(data.funnel.filter((r: { day: string }) => r.day === day2)).toMatchObject([
      { app: '1128', method: 'mobile_code', visits: 1, code_sent: 1, signed_in: 0 },
    ]);
  });

  it('counts errors by message, vitals p75 and SDK latency and error rate by path, weighted by 1 / rate', async () => {
    const { data } = (await get(operator, `from=${day1}&to=${day1}`)).body;
    expect(data.errors).toEqual([
      { day: day1, message: 'TypeError: x is undefined', count: 2 },
      { day: day1, message: 'TypeError: boom', count: 1 },
    ]);
    expect(data.vitals).toEqual([{ day: day1, name: 'LCP', p75: 3000, count: 40 }]);
    expect(data.sdk).toEqual([
      { day: day1, path: '/passport/web/sms_login/', calls: 302, errors: 2, error_rate: 0.0066, p75_ms: 300 },
    ]);
  });

  it('filters by app and flavour', async () => {
    const sso = (await get(operator, `from=${day1}&to=${day2}&app=sso-app`)).body.data;
    expect(sso.funnel).toMatchObject([{ app: 'sso-app', method: 'email_code', visits: 1 }]);
    expect(sso.errors).toEqual([]);
    const web = (await get(operator, `from=${day1}&to=${day2}&flavour=web`)).body.data;
    expect(web.funnel.some((r: { app: string }) => r.app === 'sso-app')).toBe(false);
  });

  it('refuses a range that is backwards or longer than 93 days', async () => {
    expect((await get(operator, `from=${day2}&to=${day1}`)).body.data.error_code).toBe(
      ErrorCode.invalidParam,
    );
    expect((await get(operator, 'from=2026-01-01&to=2026-11-26')).body.data.error_code).toBe(
      ErrorCode.invalidParam,
    );
    expect((await get(operator, 'from=2026-13-45&to=2026-11-26')).body.data.error_code).toBe(
      ErrorCode.invalidParam,
    );
  });

  it('deletes events older than the retention period, on the server clock', async () => {
    const onDay = async (day: string) =>
      (await (await stored()).selectFrom('monitor_events').select('id').where('day', '=', day).execute())
        .length;
    const kept = await onDay(day1);
    expect(kept).toBeGreaterThan(0);
    // 30 days after day 1's events less a millisecond: the older rows of the collector's tests go, day 1 stays.
    now = Date.parse(`${day1}T10:00:00Z`) + 30 * DAY - 1;
    await server.app.monitoring.sweep();
    expect(await onDay(day1)).toBe(kept);
    expect(await server.app.monitoring.sweep()).toBe(0);
    now = Date.parse(`${day2}T10:00:00Z`) + 30 * DAY + 1;
    expect(await server.app.monitoring.sweep()).toBeGreaterThan(0);
    expect(await onDay(day1)).toBe(0);
    expect(await onDay(day2)).toBe(0);
    // (The operator's session has ended by now: the dashboard's aggregation is read directly.)
    const data = await server.app.monitoring.dashboard({ from: day1, to: day2 });
    expect(data.funnel).toEqual([]);
    expect(data.errors).toEqual([]);
  });
});

describe('weightedP75', () => {
  it('is the smallest value with three quarters of the weight at or below it', () => {
    expect(weightedP75([])).toBe(0);
    expect(weightedP75([{ value: 5, weight: 1 }])).toBe(5);
    expect(weightedP75([1, 2, 3, 4].map((value) => ({ value, weight: 1 })))).toBe(3);
    expect(
      weightedP75([
        { value: 1, weight: 1 },
        { value: 10, weight: 9 },
      ]),
    ).toBe(10);
  });
});

describe('the database store', () => {
  const NOW = Date.now();
  const batch = (session: string) => ({
    v: 1 as const,
    session,
    app: '1128',
    flavour: 'web',
    seq: 0,
    sent_at: NOW,
    events: [
      {
        kind: 'funnel' as const,
        time: NOW,
        page: '/login',
        rate: 1,
        step: 'signed_in',
        method: 'mobile_code',
      },
      {
        kind: 'http' as const,
        time: NOW,
        page: '/login',
        rate: 0.01,
        path: '/p/',
        status: 200,
        duration_ms: 41,
      },
      {
        kind: 'js_error' as const,
        time: NOW,
        page: '/login',
        rate: 1,
        name: 'TypeError',
        message: 'x',
      },
    ],
  });
  const stored = (session: string) =>
    server.app.monitoring.db
      .selectFrom('monitor_events')
      .selectAll()
      .where('session', '=', session)
      .orderBy('kind')
      .execute()
      .then((found) => found.map(({ id: _id, session: _session, ...row }) => row));

  it('writes every column alike through the writer thread (SQLite) and through the query builder', async () => {
    const { db } = server.app.monitoring;
    const file = server.app.database.monitor;
    const writer = file && monitorWriter({ file: file.file, insertSql: MONITOR_INSERT_SQL });
    try {
      const written = databaseMonitorStore(db, writer);
      const built = databaseMonitorStore(db);
      const a = 'storeA'.padEnd(32, '0');
      const b = 'storeB'.padEnd(32, '0');
      await written.insert(rowsOf(batch(a) as never, NOW));
      await built.insert(rowsOf(batch(b) as never, NOW));
      const [fromWriter, fromBuilt] = [await stored(a), await stored(b)];
      expect(fromWriter).toHaveLength(3);
      expect(fromWriter).toEqual(fromBuilt);
      expect(await written.deleteBefore(NOW + 1)).toBeGreaterThanOrEqual(6);
      expect(await stored(a)).toEqual([]);
    } finally {
      await writer?.close();
    }
  });

  it.runIf(backend === 'sqlite')(
    'keeps monitor.db apart from the accounts, and a failed writer thread fails its writes, not the next',
    async () => {
      const file = server.app.database.monitor;
      expect(file?.file).toMatch(/monitor\.db$/);
      const tables = server.app.database.sqlite
        ?.prepare<[], string>("select name from sqlite_master where type = 'table'")
        .pluck()
        .all();
      expect(tables).not.toContain('monitor_events');
      const broken = monitorWriter({ file: file!.file, insertSql: 'insert into no_such_table values (1)' });
      await expect(broken.insert(rowsOf(batch('storeD'.padEnd(32, '0')) as never, NOW))).rejects.toThrow(
        /no such table/,
      );
      await broken.close();
      const writer = monitorWriter({ file: `${file!.file}.missing/x.db`, insertSql: MONITOR_INSERT_SQL });
      await expect(writer.deleteBefore(0)).rejects.toThrow();
      // The thread that could not open its file is gone; the next write starts another (and fails alike).
      await expect(writer.deleteBefore(0)).rejects.toThrow();
      await writer.close();
    },
  );
});
