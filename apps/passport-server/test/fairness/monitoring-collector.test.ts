import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLING } from '../../../../packages/monitor/src/sampling';
import { COLLECTOR_SAMPLING } from '../../src/domain/monitoring/batch';
import { paths } from '../../src/protocol';
import { startServer, type TestServer } from '../support/server';

/**
 * The monitoring collector takes batches from anyone (sendBeacon, no credentials). It believed a
 * client's sampling `rate` (one POST with rate 1e-300 showed 1e300 sign-ins) and stored the e-mails,
 * phone numbers and tokens that pages put in their URLs. A rate now counts at most as the sampling
 * table's for its kind, and personal data is dropped from pages, URLs and messages before storing.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({});
});
afterAll(async () => server?.close());

let sessions = 0;
async function post(events: Record<string, unknown>[]) {
  sessions += 1;
  const session = `pii${String(sessions).padStart(29, '0')}`;
  const answer = await server.app.inject({
    method: 'POST',
    url: paths.monitor.monitorBatch,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    remoteAddress: `10.88.0.${sessions}`,
    payload: JSON.stringify({
      v: 1,
      session,
      app: '1128',
      flavour: 'web',
      seq: 0,
      sent_at: Date.now(),
      events: events.map((e) => ({ time: Date.now(), page: '/login', rate: 1, ...e })),
    }),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  await server.app.monitoring.store.flush();
  return server.app.monitoring.db
    .selectFrom('monitor_events')
    .selectAll()
    .where('session', '=', session)
    .execute();
}

describe('the monitoring collector', () => {
  it('keeps the sampling table of @portico/monitor', () => {
    expect(COLLECTOR_SAMPLING).toEqual(DEFAULT_SAMPLING);
  });

  it('counts a rate below its kind’s sampling table as the table’s rate: 1e-300 is no 1e300 sign-ins', async () => {
    const rows = await post([
      { kind: 'funnel', step: 'signed_in', method: 'password', rate: 1e-300 },
      { kind: 'http', path: '/passport/web/user/login/', status: 200, duration_ms: 5, rate: 1e-9 },
      { kind: 'page_view', rate: 0.5 },
    ]);
    const weight = Object.fromEntries(rows.map((row) => [row.kind, row.weight]));
    expect(weight.funnel).toBe(1);
    expect(weight.http).toBe(1 / DEFAULT_SAMPLING.http);
    expect(weight.page_view).toBe(2);
  });

  it('drops e-mails, phone numbers and tokens in query strings before storing', async () => {
    const rows = await post([
      { kind: 'page_view', page: '/reset?email=alice%40mail.test&ticket=abcdef0123456789abcdef&lang=en' },
      {
        kind: 'resource_error',
        tag: 'img',
        url: 'https://cdn.example.com/a.png?access_token=eyJhbGciOiJIUzI1NiJ9.e30.abc&mobile=%2B8613812345678&w=64',
      },
      {
        kind: 'js_error',
        name: 'Error',
        message: 'no account for bob@example.org or +86 138 1234 5678 at /login?code=123456',
      },
    ]);
    const stored = JSON.stringify(rows);
    for (const personal of [
      'alice',
      'mail.test',
      'abcdef0123456789',
      'eyJhbGci',
      '13812345678',
      '138 1234 5678',
      'bob@',
      '123456',
    ])
      expect(stored, personal).not.toContain(personal);
    const page = rows.find((row) => row.kind === 'page_view');
    expect(page?.page).toMatch(/^\/reset\?/);
    expect(page?.page).toContain('lang=en');
    const resource = rows.find((row) => row.kind === 'resource_error');
    expect(resource?.label).toContain('https://cdn.example.com/a.png');
    expect(resource?.label).toContain('w=64');
  });
});
