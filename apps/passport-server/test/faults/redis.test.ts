import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode } from '../../src/protocol';
import { eventually, seedPasswordUser, smsSignIn, within } from '../support/faults';
import { backend, freshEmail, freshMobile, startServer, type TestServer } from '../support/server';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

const PASSWORD = 'a long enough passphrase 7';

/**
 * Redis cut off (SECURITY.md, faults): the counters behind every rate limit live in Redis, so while it
 * is away a limited action must fail closed (a 503 envelope), never succeed around its cap; the session
 * check must never let a dead session through; and the server must recover by itself.
 */
describe.runIf(backend === 'redis')('Redis cut off', () => {
  let proxy: TcpProxy;
  let server: TestServer;
  let email: string;
  beforeAll(async () => {
    const real = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 6379) });
    server = await startServer({ redisUrl: `redis://${proxy.address}${real.pathname}` });
    email = freshEmail();
    await seedPasswordUser(server.app, email, PASSWORD);
  });
  afterAll(async () => {
    proxy?.set('forward');
    await server?.close();
    await proxy?.close();
  });

  const sendCode = (browser = server.browser()) =>
    browser.post('/passport/web/send_code/', { mobile: freshMobile(), type: CodeType.mobileLogin });
  const unavailable = { message: 'error', data: { error_code: ErrorCode.serviceUnavailable } };

  async function duringOutage(mode: 'cut' | 'stall') {
    const signedIn = server.browser();
    expect((await smsSignIn(server.app, signedIn)).body.message).toBe('success');
    const signedOut = server.browser();
    const before = await smsSignIn(server.app, signedOut);
    const deadCookie = signedOut.cookies.get('sessionid') ?? '';
    await signedOut.post('/passport/web/logout/');
    const replay = server.browser();
    replay.cookies.set('sessionid', deadCookie);

    proxy.set(mode);

    // A code send cannot check its cooldown and caps: a 503 envelope, and no code goes out.
    const sent = await within(5_000, 'send_code', sendCode());
    expect(sent.status).toBe(503);
    expect(sent.body).toMatchObject(unavailable);

    // The right password cannot be checked against the failure counters: refused, not let through.
    const login = await within(
      5_000,
      'password login',
      server.browser().post('/passport/web/user/login/', { email, password: PASSWORD }),
    );
    expect(login.status).toBe(503);
    expect(login.body).toMatchObject(unavailable);

    // Sessions live in the database: a live one still reads, a dead one never does.
    const live = await within(5_000, 'account info', signedIn.get('/passport/web/account/info/'));
    expect(live.body.data.user_id).toBeTruthy();
    const dead = await within(5_000, 'account info', replay.get('/passport/web/account/info/'));
    expect(dead.body.message).toBe('error');
    expect(dead.body.data.error_code).toBe(ErrorCode.notLoggedIn);
    expect(dead.body.data.user_id).toBeUndefined();
    expect(before.body.data.user_id).toBeTruthy();

    proxy.set('forward');
    // Redis is back: the server reconnects without help.
    const recovered = await eventually(10_000, async () => {
      const answer = await within(5_000, 'send_code', sendCode());
      return answer.body.message === 'success';
    });
    expect(recovered).toBe(true);
  }

  it('answers 503 to a code send and a password login when Redis drops its connections, and recovers', async () => {
    await duringOutage('cut');
  });

  // Found here: ioredis had no command timeout, so a partition held every rate-limited request forever.
  it('answers 503 within a bounded time when Redis stops answering (a partition), and recovers', async () => {
    await duringOutage('stall');
  });
});

describe.runIf(backend === 'sqlite')('a Redis that is not there at start', () => {
  it('stops the start within a bounded time instead of serving without its counters, leaving no client behind', async () => {
    const nothing = await startTcpProxy({ host: '127.0.0.1', port: 1 });
    try {
      for (const mode of ['cut', 'stall'] as const) {
        nothing.set(mode);
        const started = Date.now();
        const outcome = await within(
          8_000,
          `a start against a ${mode} Redis`,
          startServer({ redisUrl: `redis://${nothing.address}` }).then(
            async (server) => {
              await server.close();
              return 'started';
            },
            (error: Error) => error.message,
          ),
        );
        expect(outcome, mode).not.toBe('started');
        expect(Date.now() - started).toBeLessThan(8_000);
        // Nothing is left behind trying to reach it (a failed start used to leave its client reconnecting).
        const attempts = nothing.accepted;
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(nothing.accepted - attempts, mode).toBe(0);
      }
    } finally {
      await nothing.close();
    }
  });
});
