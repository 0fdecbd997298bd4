import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { freshMobile, startServer, type TestServer } from './support/server';

/**
 * The server knows its apps (CLIENT_APPS: aid → name, origins, default region): an unknown aid is a
 * clear refusal that names the setting, on the page and in the log; an app's origins are trusted.
 */
const APPS = JSON.stringify([
  { aid: 1128, name: 'Acme', origins: ['https://app.acme.test'], default_region: 'GB' },
  { aid: 'shop-2', name: 'Acme Shop' },
]);

describe('CLIENT_APPS in the configuration', () => {
  it('reads the apps, and adds their origins to the allowed ones', () => {
    const config = loadConfig({ CLIENT_APPS: APPS });
    expect(config.clientApps).toEqual([
      { aid: '1128', name: 'Acme', origins: ['https://app.acme.test'], defaultRegion: 'GB' },
      { aid: 'shop-2', name: 'Acme Shop', origins: [], defaultRegion: undefined },
    ]);
    expect(config.allowedOrigins).toContain('https://app.acme.test');
    expect(loadConfig({}).clientApps).toBeUndefined();
  });

  it.each([
    ['not JSON', '{aid: 1}', 'is not JSON'],
    ['an empty list', '[]', 'non-empty'],
    ['no name', '[{"aid": 1}]', '"name"'],
    ['an aid twice', '[{"aid": 1, "name": "A"}, {"aid": "1", "name": "B"}]', 'listed twice'],
    ['a bad aid', '[{"aid": "a b", "name": "A"}]', '"aid"'],
    ['a bad origin', '[{"aid": 1, "name": "A", "origins": ["app.acme.test"]}]', 'origin'],
    ['a bad region', '[{"aid": 1, "name": "A", "default_region": "XX"}]', 'country'],
  ])('stops with a message naming CLIENT_APPS for %s', (_case, value, words) => {
    expect(() => loadConfig({ CLIENT_APPS: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ CLIENT_APPS: value })).toThrowError(/CLIENT_APPS/);
    expect(() => loadConfig({ CLIENT_APPS: value })).toThrowError(words);
  });
});

describe('a server that knows its apps', () => {
  const logLines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    const { clientApps, allowedOrigins } = loadConfig({ CLIENT_APPS: APPS });
    server = await startServer({ logLevel: 'info', clientApps, allowedOrigins }, { logStream });
  });
  afterAll(async () => server?.close());

  it('answers a known aid, and refuses an unknown one with APP_UNKNOWN that names CLIENT_APPS', async () => {
    const browser = server.browser();
    const known = await browser.get(`${paths.web.accountInfo}?aid=1128`);
    expect(known.status).toBe(200);
    expect(known.body.data.error_code).toBe(ErrorCode.notLoggedIn);
    expect((await browser.get(`${paths.web.accountInfo}?aid=shop-2`)).status).toBe(200);

    for (const aid of ['9999', '9999', 'x'.repeat(200)]) {
      const unknown = await browser.post(`${paths.web.sendCode}?aid=${aid}`, {
        mobile: freshMobile(),
        type: CodeType.mobileLogin,
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.data.error_code).toBe(ErrorCode.appUnknown);
      expect(unknown.body.data.description).toContain('CLIENT_APPS');
      expect(unknown.headers['x-tt-logid']).toBeTruthy();
    }
    // One warn line per unknown aid, naming the setting (not one per request).
    const warned = logLines.filter((line) => line.includes('"level":40') && line.includes('CLIENT_APPS'));
    expect(warned).toHaveLength(2);
    expect(warned[0]).toContain('"aid":"9999"');
    // Nothing was sent for the unknown app.
    expect(server.app.clientApps.find('1128')?.name).toBe('Acme');
    expect(server.app.clientApps.find('9999')).toBeUndefined();
  });

  it('trusts the origins of its apps and no other', async () => {
    const browser = server.browser();
    const fromApp = await browser.post(
      `${paths.web.sendCode}?aid=1128`,
      { mobile: freshMobile(), type: CodeType.mobileLogin },
      { origin: 'https://app.acme.test' },
    );
    expect(fromApp.body.message, JSON.stringify(fromApp.body)).toBe('success');
    const foreign = await browser.post(
      `${paths.web.sendCode}?aid=1128`,
      { mobile: freshMobile(), type: CodeType.mobileLogin },
      { origin: 'https://shop.example' },
    );
    expect(foreign.body.data.error_code).toBe(ErrorCode.originNotAllowed);
  });

  it('judges no request that names no aid (the server’s own pages, legacy callers)', async () => {
    const answer = await server.browser().get(paths.web.accountInfo);
    expect(answer.status).toBe(200);
  });
});
