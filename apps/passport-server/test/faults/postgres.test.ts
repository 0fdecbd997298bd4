import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode } from '../../src/protocol';
import { eventually, seedPasswordUser, smsSignIn, within } from '../support/faults';
import {
  backend,
  freshEmail,
  freshMobile,
  postgresUrl,
  startServer,
  type TestServer,
} from '../support/server';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

const PASSWORD = 'a long enough passphrase 7';

/**
 * PostgreSQL away (SECURITY.md, faults), through a TCP proxy in front of the shared PostgreSQL: while it
 * is gone every request that needs it answers a 503 envelope within a bounded time (no 500, no hang),
 * and the pool reconnects by itself once it is back.
 */
describe.runIf(backend === 'postgres')('PostgreSQL away', () => {
  let proxy: TcpProxy;
  let server: TestServer;
  let email: string;
  beforeAll(async () => {
    const real = new URL(await postgresUrl());
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    const through = new URL(real);
    through.host = proxy.address;
    server = await startServer({ databaseUrl: through.toString() });
    email = freshEmail();
    await seedPasswordUser(server.app, email, PASSWORD);
  });
  afterAll(async () => {
    proxy?.set('forward');
    await server?.close();
    await proxy?.close();
  });

  const unavailable = { message: 'error', data: { error_code: ErrorCode.serviceUnavailable } };

  async function outage(mode: 'cut' | 'stall') {
    const signedIn = server.browser();
    expect((await smsSignIn(server.app, signedIn)).body.message).toBe('success');
    const visitor = server.browser();
    await visitor.get('/passport/web/account/info/');

    proxy.set(mode);
    const started = Date.now();
    const answers = await within(
      10_000,
      'requests during the outage',
      Promise.all([
        signedIn.get('/passport/web/account/info/'),
        signedIn.get('/passport/web/account/info/'),
        visitor.post('/passport/web/send_code/', { mobile: freshMobile(), type: CodeType.mobileLogin }),
        visitor.post('/passport/web/sms_login/', { mobile: freshMobile(), code: '123456' }),
        visitor.post('/passport/web/user/login/', { email, password: PASSWORD }),
        // The readiness probe tells the balancer to send this server nothing (docs/deploying.md).
        visitor.get('/readyz'),
      ]),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject(unavailable);
    }
    expect(Date.now() - started).toBeLessThan(10_000);

    proxy.set('forward');
    const recovered = await eventually(10_000, async () => {
      const answer = await within(10_000, 'account info', signedIn.get('/passport/web/account/info/'));
      return answer.body.message === 'success';
    });
    expect(recovered).toBe(true);
    expect((await server.browser().get('/readyz')).body).toEqual({
      message: 'success',
      data: { ready: true },
    });
    const login = await server.browser().post('/passport/web/user/login/', { email, password: PASSWORD });
    expect(login.body.message).toBe('success');
  }

  // Found here: pg-pool lends a client out without an error listener, so a reset between two queries of a
  // request was an uncaught 'error' event that ended the process.
  it('answers only 503 envelopes while PostgreSQL drops its connections, and reconnects by itself', async () => {
    await outage('cut');
  });

  // Found here: the pool had no connect or query timeout, so every request hung for as long as the partition.
  it('answers only 503 envelopes within a bounded time while PostgreSQL stops answering, and reconnects', async () => {
    await outage('stall');
  });
});
