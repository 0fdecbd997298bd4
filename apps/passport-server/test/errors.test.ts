import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassportError } from '../src/errors';
import { ErrorCode } from '../src/protocol';
import { codeFor, freshEmail, freshMobile, startServer, type TestServer } from './support/server';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, callback) {
    logLines.push(String(chunk));
    callback();
  },
});

/** The log lines of one request. Its access line is written when the response has finished, which
 * may be a tick after the client has read it: wait for it, up to a second. */
async function linesOf(logid: string): Promise<string[]> {
  for (let waited = 0; waited < 1000; waited += 10) {
    const lines = logLines.filter((line) => line.includes(logid) && line.includes('request completed'));
    if (lines.length) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return logLines.filter((line) => line.includes(logid));
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { logLevel: 'trace' },
    {
      logStream,
      plugins: [
        async (app: FastifyInstance) => {
          app.get('/test/explode', async () => {
            throw new Error('SELECT secret_column FROM hidden_table');
          });
          // The open-auth envelope and RFC 6749 errors have no family of their own yet: test routes.
          app.get('/test/auth/code', { config: { envelope: 'auth' } }, async () => {
            throw new PassportError('codeWrong');
          });
          app.get('/test/oauth/code', { config: { envelope: 'oauth' } }, async () => {
            throw new PassportError('codeWrong');
          });
          app.get('/test/oauth/explode', { config: { envelope: 'oauth' } }, async () => {
            throw new Error('SELECT secret_column FROM hidden_table');
          });
        },
      ],
    },
  );
});
afterAll(async () => server?.close());

describe('errors', () => {
  it('answers a failure in the open-auth envelope on a route that speaks it', async () => {
    const answer = await server.browser().get('/test/auth/code?language=en');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status_code: ErrorCode.codeWrong,
      status_msg: answer.body.data.description,
      data: { error_code: ErrorCode.codeWrong, description: answer.body.data.description },
    });
    expect(answer.body.status_msg).not.toBe('');
  });

  it('answers RFC 6749 errors on an oauth route: 400 for a business failure, server_error for a 500', async () => {
    const failed = await server.browser().get('/test/oauth/code?language=en');
    expect(failed.status).toBe(400);
    expect(Object.keys(failed.body).sort()).toEqual(['error', 'error_description']);
    expect(failed.body.error).toBe('invalid_request');
    expect(failed.headers['cache-control']).toBe('no-store');
    const exploded = await server.browser().get('/test/oauth/explode');
    expect(exploded.status).toBe(500);
    expect(exploded.body.error).toBe('server_error');
    expect(JSON.stringify(exploded.body)).not.toContain('secret_column');
  });

  it('answers an unknown path with a 404 envelope and a log id', async () => {
    const answer = await server.browser().get('/passport/web/no_such_thing/');
    expect(answer.status).toBe(404);
    expect(answer.body.data.error_code).toBe(ErrorCode.notFound);
    expect(answer.headers['x-tt-logid']).toMatch(/^[0-9]{14}[0-9A-F]{12}$/);
  });

  it('answers malformed input with a 400 envelope naming the field', async () => {
    const browser = server.browser();
    const missing = await browser.post('/passport/web/send_code/', { type: 24 });
    expect(missing.status).toBe(400);
    expect(missing.body.data).toMatchObject({
      error_code: ErrorCode.invalidParam,
      field: expect.stringContaining('body'),
    });
    const wrongType = await browser.post('/passport/web/send_code/', {
      mobile: freshMobile(),
      type: 'twenty-four',
    });
    expect(wrongType.status).toBe(400);
    const repeated = await browser.request('POST', '/passport/web/send_code/', undefined, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(repeated.status).toBeGreaterThanOrEqual(400);
    expect(repeated.status).toBeLessThan(500);
  });

  it('answers a broken JSON body with 400, a huge body with 413, an unknown content type with 415', async () => {
    const browser = server.browser();
    await browser.get('/passport/web/account/info/');
    const csrf = browser.cookies.get('passport_csrf_token') ?? '';
    const post = (contentType: string, payload: string) =>
      server.app.inject({
        method: 'POST',
        url: '/passport/web/send_code/',
        headers: {
          'content-type': contentType,
          'x-tt-passport-csrf-token': csrf,
          cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
        payload,
      });
    const broken = await post('application/json', '{"mobile": ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().data.error_code).toBe(ErrorCode.invalidParam);
    const huge = await post('application/x-www-form-urlencoded', `mobile=${'1'.repeat(200_000)}`);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().data.error_code).toBe(ErrorCode.payloadTooLarge);
    const xml = await post('application/xml', '<mobile/>');
    expect(xml.statusCode).toBe(415);
    const json = await post('application/json', JSON.stringify({ mobile: freshMobile(), type: 24 }));
    expect(json.json().message).toBe('success');
  });

  it('never leaks the message of a real 500', async () => {
    const answer = await server.browser().get('/test/explode');
    expect(answer.status).toBe(500);
    expect(answer.body.data.error_code).toBe(ErrorCode.internalError);
    expect(JSON.stringify(answer.body)).not.toContain('hidden_table');
  });

  it('describes errors in English when language=en', async () => {
    const answer = await server.browser().get('/passport/web/account/info/?language=en');
    expect(answer.body.data.description).toBe('Please sign in first');
  });

  it('carries x-tt-logid on every response and in the log lines of that request', async () => {
    const answer = await server.browser().get('/passport/web/account/info/');
    const logid = answer.headers['x-tt-logid'] as string;
    expect((await linesOf(logid)).length).toBeGreaterThan(0);
  });

  it('writes one access line per request: method, path without query, status, time and logid', async () => {
    const answer = await server.browser().get('/passport/web/account/info/?language=en&code=123456');
    const logid = answer.headers['x-tt-logid'] as string;
    const lines = (await linesOf(logid)).map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      logid,
      method: 'GET',
      path: '/passport/web/account/info/',
      statusCode: 200,
    });
    expect(typeof lines[0].responseTime).toBe('number');
    expect(logLines.join('\n')).not.toContain('incoming request');
  });

  it('sends security headers and never lets auth responses be cached', async () => {
    const answer = await server.browser().get('/passport/web/account/info/');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('serves the OpenAPI document generated from the route schemas, and a page beside it', async () => {
    const doc = await server.browser().get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/passport/web/send_code/',
        '/passport/web/user/login/',
        '/passport/web/account/info/',
      ]),
    );
    const sendCode = doc.body.paths['/passport/web/send_code/'].post;
    expect(Object.keys(sendCode.requestBody.content)).toContain('application/x-www-form-urlencoded');
    const page = await server.browser().get('/docs/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('keeps codes, passwords, cookies and tokens out of every log line', async () => {
    const browser = server.browser();
    const mobile = freshMobile();
    await browser.post('/passport/web/send_code/', { mobile, type: 24 });
    const code = await codeFor(server.app, mobile);
    await browser.post('/passport/web/sms_login/', { mobile, code });
    const session = browser.cookies.get('sessionid') ?? 'missing';
    const csrf = browser.cookies.get('passport_csrf_token') ?? 'missing';
    const password = 'a-very-secret-password-9931';
    await browser.post('/passport/web/user/login/', { email: freshEmail(), password });
    await browser.get('/passport/web/account/info/');
    const all = logLines.join('\n');
    expect(all).toContain('request completed');
    for (const secret of [code, session, csrf, password]) expect(all).not.toContain(secret);
  });
});
