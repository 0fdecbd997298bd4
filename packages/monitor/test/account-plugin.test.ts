import { accountCall, createAccountClient, isAccountError, smsLogin } from '@portico/account-sdk';
import { describe, expect, it } from 'vitest';
import { type MonitorOptions, monitorPlugin } from '../src/index';
import { setup } from './fakes';

const SUCCESS = { message: 'success', data: { user_id: 42, mobile: '+8613800138000' } };
const FAILURE = {
  message: 'error',
  data: { error_code: 1105, description: 'wrong code for +8613800138000' },
};

/**
 * A monitor whose clock the fake passport moves (each exchange takes 120 ms), and an account client
 * whose fetch answers every call with `answer`. No timers: the test flushes by hand.
 */
function wire(
  answer: (request: Request) => Response | Promise<Response>,
  { resend, ...options }: Partial<MonitorOptions> & { resend?: boolean } = {},
) {
  let now = 1_000;
  const context = setup({
    clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => {} },
    ...options,
  });
  const requests: Request[] = [];
  const client = createAccountClient({
    aid: 1128,
    baseUrl: 'https://passport.example',
    document: { cookie: '' },
    fingerprint: () => 'verify_abc',
    fetch: async (input) => {
      const request = input as Request;
      requests.push(request);
      now += 120;
      return answer(request);
    },
  });
  if (resend)
    client.use({
      name: 'resender',
      setup: () => ({
        afterResponse: [
          (state) => {
            const call = accountCall(state);
            if (call.config.retryCount === 0) return call.resend({ data: { isResend: 1 } });
          },
        ],
      }),
    });
  const uninstall = client.use(monitorPlugin(context.monitor));
  const sent = () => {
    context.monitor.flush();
    return context.sink.events;
  };
  return { ...context, client, uninstall, requests, sent };
}

const reply = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', 'x-tt-logid': '20261125105001ABCDEF', ...init.headers },
  });

describe('monitorPlugin', () => {
  it('records a successful call: method, path, status, duration, error code 0 and the log id', async () => {
    const { client, sent } = wire(() => reply(SUCCESS));
    await smsLogin(client, { mobile: '+8613800138000', code: '123456' });
    expect(sent()).toEqual([
      {
        kind: 'http',
        method: 'POST',
        path: '/passport/web/sms_login/',
        status: 200,
        error_code: 0,
        log_id: '20261125105001ABCDEF',
        duration_ms: 120,
        time: 1_120,
        page: '/login',
        rate: 0.01, // the http rate: the collector counts it as 100 calls
      },
    ]);
  });

  it('records a failed call with its error code, once, when it has settled', async () => {
    const { client, sent } = wire(() => reply(FAILURE));
    const error = await smsLogin(client, { mobile: '+8613800138000', code: '000000' }).catch(
      (e: unknown) => e,
    );
    expect(isAccountError(error)).toBe(true);
    expect(sent()).toMatchObject([
      {
        kind: 'http',
        path: '/passport/web/sms_login/',
        status: 200,
        error_code: 1105,
        log_id: '20261125105001ABCDEF',
      },
    ]);
  });

  it('records a call that got no answer (network failure) with status 0 and error code -1', async () => {
    const { client, sent } = wire(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(smsLogin(client, { mobile: '1', code: '2' })).rejects.toMatchObject({ kind: 'network' });
    expect(sent()).toMatchObject([{ kind: 'http', status: 0, error_code: -1, log_id: '' }]);
  });

  it('records an HTTP error status without an envelope', async () => {
    const { client, sent } = wire(() => new Response('Bad gateway', { status: 502 }));
    await expect(smsLogin(client, { mobile: '1', code: '2' })).rejects.toMatchObject({ kind: 'status' });
    expect(sent()).toMatchObject([{ kind: 'http', status: 502, error_code: -1 }]);
  });

  it('never sends the query or the payload: no mobile, code, fingerprint or app id leaves the page', async () => {
    const { client, sent, requests, sink } = wire(() => reply(SUCCESS));
    await smsLogin(client, { mobile: '+8613800138000', code: '123456' });
    expect(requests[0]?.url).toContain('verifyFp=verify_abc');
    sent();
    expect(JSON.stringify(sink.sent)).not.toMatch(/8613800138000|123456|verify_abc|aid=|user_id|42/);
  });

  it('samples successes at the http rate and failures at the error-trace rate', async () => {
    const { client, sent } = wire((request) => reply(request.url.includes('sms_login') ? FAILURE : SUCCESS), {
      sampling: { http: 0 },
    });
    await smsLogin(client, { mobile: '1', code: '2' }).catch(() => undefined);
    await client.request({ path: '/passport/web/user/info/' });
    expect(sent().map((e) => e.kind === 'http' && [e.path, e.error_code])).toEqual([
      ['/passport/web/sms_login/', 1105],
    ]);
  });

  it('adds no hooks in a session that samples neither', async () => {
    const { client, sent } = wire(() => reply(SUCCESS), { sampling: { http: 0, error_trace: 0 } });
    expect(monitorPlugin(setup({ sampling: { http: 0, error_trace: 0 } }).monitor).setup(client)).toEqual({});
    await smsLogin(client, { mobile: '1', code: '2' });
    expect(sent()).toEqual([]);
  });

  it('records a call another plugin resent (a challenge passed) once, with its last attempt’s duration', async () => {
    const { client, sent, requests } = wire(() => reply(SUCCESS), { resend: true });
    await smsLogin(client, { mobile: '1', code: '2' });
    expect(requests).toHaveLength(2);
    expect(sent()).toMatchObject([{ kind: 'http', error_code: 0, duration_ms: 120 }]);
  });

  it('stops recording when uninstalled', async () => {
    const { client, sent, uninstall } = wire(() => reply(SUCCESS));
    uninstall();
    await smsLogin(client, { mobile: '1', code: '2' });
    expect(sent()).toEqual([]);
  });
});
