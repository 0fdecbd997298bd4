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

describe('check registered: wider networks and devices', () => {
  // Generous per address, tight per /48, /32 and device: each test meets the group it is about.
  let wide: TestServer;
  const PER_48 = 4;
  const PER_32 = 6;
  const PER_DEVICE = 3;
  beforeAll(async () => {
    wide = await startServer(
      {},
      {
        limits: {
          checkRegisteredPerIpPerHour: 100,
          checkRegisteredPer48PerHour: PER_48,
          checkRegisteredPer32PerHour: PER_32,
          checkRegisteredPerDevicePerHour: PER_DEVICE,
        },
      },
    );
  });
  afterAll(async () => wide?.close());

  const lookUp = async (address: string, device?: string) => {
    const browser = wide.browser();
    browser.remoteAddress = address;
    if (device) browser.cookies.set('s_v_web_id', device);
    return browser.post(paths.web.userCheckEmailRegistered, { email: freshEmail() });
  };

  it('limits an IPv6 /48 as one: rotating its 65,536 /64s buys no lookups', async () => {
    const statuses = [];
    for (let net = 1; net <= PER_48 + 1; net++) statuses.push((await lookUp(`2001:db8:48:${net}::1`)).status);
    expect(statuses).toEqual([...Array(PER_48).fill(200), 429]);
    // Another /48 of the same /32 is another site.
    expect((await lookUp('2001:db8:49:1::1')).status).toBe(200);
  });

  it('limits an IPv6 /32 as one: rotating its /48s buys no lookups past the provider-wide number', async () => {
    const statuses = [];
    for (let site = 1; site <= PER_32 + 1; site++)
      statuses.push((await lookUp(`2001:db9:${site}::1`)).status);
    expect(statuses).toEqual([...Array(PER_32).fill(200), 429]);
    expect((await lookUp('2001:dba:1::1')).status).toBe(200);
  });

  it('limits a device across addresses', async () => {
    const statuses = [];
    for (let host = 1; host <= PER_DEVICE + 1; host++)
      statuses.push((await lookUp(`198.51.100.${host}`, 'lookup-device-1')).status);
    expect(statuses).toEqual([...Array(PER_DEVICE).fill(200), 429]);
    expect((await lookUp('198.51.100.50', 'lookup-device-2')).status).toBe(200);
  });
});
