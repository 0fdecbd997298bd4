import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/protocol';
import { startServer, type TestServer } from './support/server';

/** The versioned legal documents the web app's privacy-policy and terms-of-service pages load. */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

describe.each(['privacy-policy', 'terms-of-service'])('GET /passport/web/legal/%s/…', (kind) => {
  it('answers the latest version in the web envelope, in Chinese and English, with the version list', async () => {
    const answer = await server.browser().get(`/passport/web/legal/${kind}/latest/`);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body.message).toBe('success');
    const document = answer.body.data;
    expect(document).toMatchObject({ kind, id: '2026-11-22', published_at: Date.UTC(2026, 10, 22) });
    expect(document.title.zh).toMatch(kind === 'privacy-policy' ? /隐私政策/ : /服务条款/);
    expect(document.title.en).toMatch(kind === 'privacy-policy' ? /Privacy policy/ : /Terms of service/);
    expect(document.body.zh).toContain('## ');
    expect(document.body.en).toContain('Portico');
    expect(document.versions).toEqual([{ id: '2026-11-22', published_at: Date.UTC(2026, 10, 22) }]);
  });

  it('answers a version by its id, without a trailing slash too', async () => {
    const answer = await server.browser().get(`/passport/web/legal/${kind}/2026-11-22`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.id).toBe('2026-11-22');
  });

  it('answers an unknown version with a NOT_FOUND envelope and HTTP 404', async () => {
    const answer = await server.browser().get(`/passport/web/legal/${kind}/1999-01-01/`);
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('error');
    expect(answer.body.data).toMatchObject({ error_code: ErrorCode.notFound, kind, id: '1999-01-01' });
    expect(answer.body.data.description).toBeTruthy();
  });
});

describe('GET /passport/web/legal/ with a bad kind or id', () => {
  it('answers an unknown kind with NOT_FOUND and 404', async () => {
    const answer = await server.browser().get('/passport/web/legal/cookie-policy/latest/');
    expect(answer.status).toBe(404);
    expect(answer.body.data.error_code).toBe(ErrorCode.notFound);
  });

  it('refuses a malformed kind or id with INVALID_PARAM and 400, before the database', async () => {
    for (const url of [
      '/passport/web/legal/Privacy_Policy/latest/',
      '/passport/web/legal/privacy-policy/a%20b/',
    ]) {
      const answer = await server.browser().get(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.data.error_code, url).toBe(ErrorCode.invalidParam);
    }
  });

  it('describes the failure in English when asked', async () => {
    const answer = await server.browser().get('/passport/web/legal/privacy-policy/nope/?language=en');
    expect(answer.body.data.description).toBe('Not found');
  });
});
