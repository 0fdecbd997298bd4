import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError, type SmsMessage, type SmsProvider } from '../src/delivery/providers';
import { CodeType, ErrorCode } from '../src/protocol';
import { freshEmail, freshMobile, startServer, type TestServer } from './support/server';

describe('delivery through a real SMTP server on loopback', () => {
  const received: { to: string; raw: string }[] = [];
  let smtp: SMTPServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
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
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    server = await startServer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      smtpFrom: 'Portico <no-reply@portico.test>',
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => smtp.close(resolve));
  });

  it('mails the code in the requested language, and the code signs the address in', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const sent = await browser.post('/passport/web/email/send_code/?language=en', {
      email,
      type: CodeType.emailLogin,
    });
    expect(sent.body.message).toBe('success');
    const mail = received.find((m) => m.to === email);
    expect(mail?.raw).toContain('Your verification code is');
    const code = mail?.raw.match(/code is (\d{6})/)?.[1] ?? '';
    const login = await browser.post('/passport/web/email/code_login/', { email, code });
    expect(login.body.message).toBe('success');
  });

  it('has no dev outbox routes once SMTP is configured', async () => {
    expect((await server.browser().get('/dev/outbox')).status).toBe(404);
    expect((await server.browser().get('/dev/outbox/messages?to=x')).status).toBe(404);
  });

  it('fails SMS clearly instead of falling back to the outbox, and charges no cooldown', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const first = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(first.body.data.error_code).toBe(ErrorCode.deliveryFailed);
    const second = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(second.body.data.error_code).toBe(ErrorCode.deliveryFailed);
  });
});

describe('a provider that fails', () => {
  let server: TestServer;
  let failing = true;
  const delivered: SmsMessage[] = [];
  const flaky: SmsProvider = {
    name: 'flaky',
    async send(message) {
      if (failing) throw new DeliveryError('provider down');
      delivered.push(message);
    },
  };
  beforeAll(async () => {
    server = await startServer({}, { sms: flaky });
  });
  afterAll(async () => server?.close());

  it('gets a clear error, no cooldown is charged, and the undelivered code is void', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    const failed = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(failed.status).toBe(200);
    expect(failed.body.data.error_code).toBe(ErrorCode.deliveryFailed);
    const rows = await server.app.db
      .selectFrom('one_time_codes')
      .select('id')
      .where('target', '=', mobile)
      .execute();
    expect(rows).toHaveLength(0);

    failing = false;
    const retried = await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    expect(retried.body.message).toBe('success');
    expect(delivered.at(-1)?.to).toBe(mobile);
    expect(delivered.at(-1)?.text).toMatch(/验证码是 \d{6}/);
  });
});

describe('SMS through the HTTP webhook', () => {
  const hits: { body: unknown; auth: string | undefined }[] = [];
  const hook = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      hits.push({ body: JSON.parse(body), auth: req.headers.authorization });
      res.writeHead(hits.length === 1 ? 200 : 502).end();
    });
  });
  let server: TestServer;
  beforeAll(async () => {
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const { port } = hook.address() as AddressInfo;
    server = await startServer({
      smsWebhookUrl: `http://127.0.0.1:${port}/sms`,
      smsWebhookToken: 'hook-token',
    });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => hook.close(() => resolve()));
  });

  it('posts the message as JSON with the bearer token, and a non-2xx answer is a delivery failure', async () => {
    const mobile = freshMobile();
    const ok = await server.browser().post('/passport/web/send_code/', { mobile, type: 24 });
    expect(ok.body.message).toBe('success');
    expect(hits[0]).toMatchObject({
      auth: 'Bearer hook-token',
      body: { to: mobile, template: 'verification_code', language: 'zh', params: { minutes: '10' } },
    });
    const refused = await server
      .browser()
      .post('/passport/web/send_code/', { mobile: freshMobile(), type: 24 });
    expect(refused.body.data.error_code).toBe(ErrorCode.deliveryFailed);
  });
});
