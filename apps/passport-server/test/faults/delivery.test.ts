import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it, describe as vitestDescribe } from 'vitest';
import { CodeType, ErrorCode } from '../../src/protocol';
import { within } from '../support/faults';
import { freePort } from '../support/process';
import { backend, freshEmail, freshMobile, startServer, type TestServer } from '../support/server';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

/**
 * Delivery provider down (SECURITY.md, faults), beyond test/delivery.test.ts (a provider that throws,
 * a webhook's first non-2xx): the SMTP server not listening, or accepting and never greeting, and the
 * SMS webhook answering 500 then recovering. Each time: a clear DELIVERY_FAILED within a bounded time,
 * and the cooldown not charged, so the retry right after, once the provider is back, is delivered.
 */
const failed = { message: 'error', data: { error_code: ErrorCode.deliveryFailed } };
// The provider, not the storage, fails here: SQLite and PostgreSQL. (test/delivery.test.ts releases the
// cooldown on every backend, Redis included.)
const describe = backend === 'redis' ? vitestDescribe.skip : vitestDescribe;

function smtpServer(received: { to: string; raw: string }[]): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        callback();
      });
    },
  });
}

describe('an SMTP server that is down', () => {
  const received: { to: string; raw: string }[] = [];
  let port: number;
  let smtp: SMTPServer | undefined;
  let server: TestServer;
  beforeAll(async () => {
    port = await freePort();
    server = await startServer({ smtpUrl: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await server?.close();
    if (smtp) await new Promise<void>((resolve) => smtp?.close(resolve));
  });

  it('answers DELIVERY_FAILED while nothing listens, and the retry right after it comes up is delivered', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const down = await within(
      5_000,
      'send to a closed SMTP port',
      browser.post('/passport/web/email/send_code/', { email, type: CodeType.emailLogin }),
    );
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject(failed);

    smtp = smtpServer(received);
    await new Promise<void>((resolve) => smtp?.listen(port, '127.0.0.1', resolve));
    const retry = await browser.post('/passport/web/email/send_code/?language=en', {
      email,
      type: CodeType.emailLogin,
    });
    expect(retry.body.message).toBe('success');
    const code = received.find((m) => m.to === email)?.raw.match(/code is (\d{6})/)?.[1] ?? '';
    const login = await browser.post('/passport/web/email/code_login/', { email, code });
    expect(login.body.message).toBe('success');
  });
});

describe('an SMTP server that accepts and never answers', () => {
  const received: { to: string; raw: string }[] = [];
  const smtp = smtpServer(received);
  let proxy: TcpProxy;
  let server: TestServer;
  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    proxy = await startTcpProxy({ host: '127.0.0.1', port: (smtp.server.address() as AddressInfo).port });
    // The URL's own timeouts win over the provider's defaults (10 s): short here, to keep the test fast.
    server = await startServer({
      smtpUrl: `smtp://${proxy.address}?connectionTimeout=500&greetingTimeout=500&socketTimeout=1000`,
    });
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await new Promise<void>((resolve) => smtp.close(resolve));
  });

  it('gives up within its timeout with DELIVERY_FAILED, and the retry right after it answers again is delivered', async () => {
    proxy.set('stall');
    const browser = server.browser();
    const email = freshEmail();
    const started = Date.now();
    const stalled = await within(
      5_000,
      'send to a silent SMTP server',
      browser.post('/passport/web/email/send_code/', { email, type: CodeType.emailLogin }),
    );
    expect(stalled.body).toMatchObject(failed);
    expect(Date.now() - started).toBeLessThan(3_000);

    proxy.set('forward');
    const retry = await browser.post('/passport/web/email/send_code/', { email, type: CodeType.emailLogin });
    expect(retry.body.message).toBe('success');
    expect(received.some((m) => m.to === email)).toBe(true);
  });
});

describe('an SMS webhook that answers 500', () => {
  let status = 500;
  const delivered: { to: string; text: string }[] = [];
  let hook: Server;
  let server: TestServer;
  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        if (status === 200) delivered.push(JSON.parse(body));
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    server = await startServer({
      smsWebhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/sms`,
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => hook.close(() => resolve()));
  });

  it('answers DELIVERY_FAILED, keeps no guessable code, and the retry right after it recovers is delivered', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const down = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
    expect(down.body).toMatchObject(failed);
    const live = await browser.post('/passport/web/sms_login/', { mobile, code: '000000' });
    expect(live.body.data.error_code).toBe(ErrorCode.codeExpired);

    status = 200;
    const retry = await browser.post('/passport/web/send_code/', { mobile, type: CodeType.mobileLogin });
    expect(retry.body.message).toBe('success');
    const code = delivered.find((m) => m.to === mobile)?.text.match(/\b(\d{6})\b/)?.[1] ?? '';
    const login = await browser.post('/passport/web/sms_login/', { mobile, code });
    expect(login.body.message).toBe('success');
  });
});
