import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, paths } from '../src/protocol';
import { signInBySms } from './support/flows';
import { freshEmail, freshMobile, startServer, type TestServer } from './support/server';

let server: TestServer;
const LIMIT = 3;
beforeAll(async () => {
  server = await startServer({}, { limits: { checkRegisteredPerIpPerHour: LIMIT } });
});
afterAll(async () => server?.close());

describe('check registered', () => {
  it('tells whether a mobile number or an e-mail address has an account', async () => {
    const { mobile } = await signInBySms(server, server.browser());
    const browser = server.browser();
    const known = await browser.post(paths.web.userCheckMobileRegistered, { mobile: mobile.slice(3) });
    expect(known.body).toEqual({ message: 'success', data: { is_registered: true } });
    const unknown = await browser.post(paths.web.userCheckEmailRegistered, { email: freshEmail() });
    expect(unknown.body).toEqual({ message: 'success', data: { is_registered: false } });
  });

  it('answers 429 with an envelope past the per-address limit, mobile and e-mail sharing it', async () => {
    const browser = server.browser();
    const answers = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      answers.push(
        i % 2
          ? await browser.post(paths.web.userCheckEmailRegistered, { email: freshEmail() })
          : await browser.post(paths.web.userCheckMobileRegistered, { mobile: freshMobile() }),
      );
    }
    expect(answers.slice(0, LIMIT).map((a) => a.body.message)).toEqual(Array(LIMIT).fill('success'));
    const refused = answers[LIMIT];
    expect(refused?.status).toBe(429);
    expect(refused?.body).toEqual({
      message: 'error',
      data: { error_code: ErrorCode.rateLimited, description: expect.any(String) },
    });
    expect(refused?.headers['x-tt-logid']).toBeTruthy();
  });

  it('counts invalid input too, so malformed guesses are no way around the limit', async () => {
    const browser = server.browser();
    for (let i = 0; i < LIMIT; i++) {
      const answer = await browser.post(paths.web.userCheckMobileRegistered, { mobile: '12345' });
      expect(answer.body.data.error_code).toBe(ErrorCode.invalidMobile);
    }
    const over = await browser.post(paths.web.userCheckMobileRegistered, { mobile: freshMobile() });
    expect(over.status).toBe(429);
  });

  it('is not bypassed by rotating or re-spelling IPv6 addresses inside one /64', async () => {
    const addresses = [
      '2001:db8:77:1::1',
      '2001:0DB8:0077:0001:0000:0000:0000:0002',
      '2001:db8:77:1:ffff:ffff:ffff:ffff',
      '[2001:db8:77:1::9]',
    ];
    const answers = [];
    for (const address of addresses) {
      const browser = server.browser();
      browser.remoteAddress = address;
      answers.push(await browser.post(paths.web.userCheckEmailRegistered, { email: freshEmail() }));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    const neighbour = server.browser();
    neighbour.remoteAddress = '2001:db8:77:2::1';
    expect((await neighbour.post(paths.web.userCheckEmailRegistered, { email: freshEmail() })).status).toBe(
      200,
    );
  });

  it('treats IPv4 and its IPv4-mapped IPv6 form as one client', async () => {
    const statuses = [];
    for (const address of ['192.0.2.77', '::ffff:192.0.2.77', '::ffff:c000:24d', '192.0.2.77']) {
      const browser = server.browser();
      browser.remoteAddress = address;
      statuses.push(
        (await browser.post(paths.web.userCheckMobileRegistered, { mobile: freshMobile() })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('is not bypassed by path variants: every spelling that reaches the route pays, the rest are 404s', async () => {
    const browser = server.browser();
    const url = paths.web.userCheckEmailRegistered;
    const variants = [
      url.slice(0, -1),
      `/${url}`,
      url.replace('/web/', '/web//'),
      url.toUpperCase(),
      url.replace('/user/', '%2Fuser/'),
      url,
      url,
      url,
    ];
    const reached: number[] = [];
    for (const variant of variants) {
      const answer = await browser.post(variant, { email: freshEmail() });
      expect([200, 404, 429], variant).toContain(answer.status);
      if (answer.status === 404) expect(answer.body.data.error_code).toBe(ErrorCode.notFound);
      else reached.push(answer.status);
    }
    // Whatever spellings reach the handler, the LIMIT+1-th reaching request is refused.
    expect(reached.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(reached.slice(LIMIT).every((s) => s === 429)).toBe(true);
    expect(reached.length).toBeGreaterThan(LIMIT);
  });

  it('needs the CSRF token like every POST', async () => {
    const browser = server.browser();
    await browser.get(paths.web.accountInfo);
    browser.sendCsrf = false;
    const answer = await browser.post(paths.web.userCheckEmailRegistered, { email: freshEmail() });
    expect(answer.status).toBe(403);
    expect(answer.body.data.error_code).toBe(ErrorCode.csrfFailed);
  });
});
