import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, paths } from '../../src/protocol';
import { signInBySms } from '../support/flows';
import { type Browser, startServer, type TestServer } from '../support/server';

/**
 * QR polling (check_qrconnect, read-only, asked every second or two by the browser that shows a code)
 * and SSO ticket minting (/sso/login for a signed-in browser: one store write per ticket) had no limits:
 * a script could read and write the store as fast as it could send. Both now count per client address
 * (IPv6 by /64) per minute, tickets per session too; past it, RATE_LIMITED (429).
 */
const SERVICE = 'https://service.example.com';
let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    { ssoServices: [SERVICE] },
    { limits: { qrPollsPerIpPerMinute: 6, ssoTicketsPerSessionPerMinute: 3, ssoTicketsPerIpPerMinute: 5 } },
  );
});
afterAll(async () => server?.close());

function browserAt(address: string): Browser {
  const browser = server.browser();
  browser.remoteAddress = address;
  return browser;
}

const poll = (browser: Browser, token: string) => browser.get(`${paths.web.checkQrconnect}?token=${token}`);

describe('QR polling', () => {
  it('answers an address’s polls up to its count a minute, then 429; other addresses go on', async () => {
    const desktop = browserAt('192.0.2.51');
    const { token } = (await desktop.get(paths.web.getQrcode)).body.data;
    const statuses: number[] = [];
    // get_qrcode's own address: 6 polls a minute, made-up tokens counted too.
    for (let i = 0; i < 4; i++) statuses.push((await poll(desktop, token)).status);
    for (let i = 0; i < 3; i++)
      statuses.push((await poll(desktop, randomBytes(32).toString('base64url'))).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);
    const refused = await poll(desktop, token);
    expect(refused.status).toBe(429);
    expect(refused.body.data.error_code).toBe(ErrorCode.rateLimited);

    const other = browserAt('192.0.2.52');
    const own = (await other.get(paths.web.getQrcode)).body.data.token;
    expect((await poll(other, own)).body.data.status).toBe('new');
  });
});

describe('SSO ticket minting', () => {
  const login = (browser: Browser) => browser.get(`/sso/login?service=${encodeURIComponent(SERVICE)}`);

  it('mints a session’s tickets up to its count a minute, then 429', async () => {
    const browser = browserAt('192.0.2.61');
    await signInBySms(server, browser);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(browser)).status);
    expect(statuses).toEqual([302, 302, 302, 429]);
  });

  it('counts an address’s tickets across its sessions', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const browser = browserAt('192.0.2.62');
      await signInBySms(server, browser);
      statuses.push((await login(browser)).status, (await login(browser)).status);
    }
    expect(statuses.filter((status) => status === 302).length).toBe(5);
    expect(statuses.at(-1)).toBe(429);
  });
});
