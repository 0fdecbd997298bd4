import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaptchaProviderConfig, ConfigError, loadConfig } from '../src/config';
import { ErrorCode } from '../src/protocol';
import { answerFields, draw, expectedAnswer, guardedRoutes, verify } from './support/challenge';
import { startServer, type TestServer } from './support/server';

/**
 * Issue 10, item 4: Cloudflare Turnstile, hCaptcha and GeeTest behind or instead of our puzzles, each
 * verified through its server-side API. The providers are a real HTTP server on loopback speaking each
 * one's documented request and answer shape.
 */

const GOOD = 'XXXX.DUMMY.TOKEN.GOOD';
const GEETEST_KEY = 'geetest-captcha-key';
const SECRETS = { turnstile: 'turnstile-secret', hcaptcha: 'hcaptcha-secret' };

interface Seen {
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
}
const seen: Seen[] = [];
let peer: Server;
let down = false;
let origin = '';

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

beforeAll(async () => {
  peer = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://loopback');
    const form = new URLSearchParams(await body(request));
    seen.push({ path: url.pathname, query: url.searchParams, form });
    if (down) {
      response.writeHead(503).end('unavailable');
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (url.pathname === '/turnstile/v0/siteverify') {
      const ok = form.get('secret') === SECRETS.turnstile && form.get('response') === GOOD;
      response.end(
        JSON.stringify(
          ok
            ? {
                success: true,
                'error-codes': [],
                challenge_ts: new Date().toISOString(),
                hostname: 'localhost',
              }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    } else if (url.pathname === '/siteverify') {
      const ok = form.get('secret') === SECRETS.hcaptcha && form.get('response') === GOOD;
      response.end(
        JSON.stringify(
          ok
            ? { success: true, hostname: 'localhost' }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      );
    } else if (url.pathname === '/validate') {
      const lot = form.get('lot_number') ?? '';
      const signed = createHmac('sha256', GEETEST_KEY).update(lot).digest('hex');
      const ok = form.get('sign_token') === signed && form.get('pass_token') === GOOD;
      response.end(
        JSON.stringify(
          ok
            ? { result: 'success', reason: '', captcha_args: {} }
            : { result: 'fail', reason: 'pass_token expire' },
        ),
      );
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => peer?.close(resolve));
});

const PROVIDERS: Record<CaptchaProviderConfig['name'], () => CaptchaProviderConfig> = {
  turnstile: () => ({
    name: 'turnstile',
    mode: 'behind',
    siteKey: '1x00000000000000000000AA',
    secret: SECRETS.turnstile,
    verifyUrl: `${origin}/turnstile/v0/siteverify`,
  }),
  hcaptcha: () => ({
    name: 'hcaptcha',
    mode: 'instead',
    siteKey: '10000000-ffff-ffff-ffff-000000000001',
    secret: SECRETS.hcaptcha,
    verifyUrl: `${origin}/siteverify`,
  }),
  geetest: () => ({
    name: 'geetest',
    mode: 'behind',
    siteKey: 'geetest-captcha-id',
    secret: GEETEST_KEY,
    verifyUrl: `${origin}/validate`,
  }),
};

const tokenOf = (name: CaptchaProviderConfig['name'], good: boolean) =>
  name === 'geetest'
    ? JSON.stringify({
        lot_number: 'lot-123',
        captcha_output: 'output',
        pass_token: good ? GOOD : 'stale',
        gen_time: '1795836350',
      })
    : good
      ? GOOD
      : 'forged';

describe.each(Object.keys(PROVIDERS) as CaptchaProviderConfig['name'][])('the %s provider', (name) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ captchaProvider: PROVIDERS[name]() }, { plugins: [guardedRoutes] });
  });
  afterAll(async () => server?.close());

  it('is verified through its documented siteverify shape; a refused or missing token fails with 1408', async () => {
    const config = PROVIDERS[name]();
    const browser = server.browser();
    const data = await server.app.challenge.demand('/test/guarded', 'text');
    const id = (JSON.parse(Object.values(data)[0] as string) as { challenge_id: string }).challenge_id;
    const drawn = await draw(browser, { challenge_id: id });
    expect(drawn.body.data.provider).toEqual({ name, site_key: config.siteKey, mode: config.mode });
    if (config.mode === 'instead') expect(drawn.body.data.image).toBe('');
    else expect(drawn.body.data.image).toMatch(/^data:image\/png;base64,/);
    const answer = await expectedAnswer(browser, id);

    const before = seen.length;
    const refused = await verify(browser, {
      challenge_id: id,
      ...answerFields(answer),
      provider_token: tokenOf(name, false),
    });
    expect(refused.body.data.error_code).toBe(ErrorCode.challengeProviderFailed);
    const missing = await verify(browser, { challenge_id: id, ...answerFields(answer) });
    expect(missing.body.data.error_code).toBe(ErrorCode.challengeProviderFailed);
    const passed = await verify(browser, {
      challenge_id: id,
      ...answerFields(answer),
      provider_token: tokenOf(name, true),
    });
    expect(passed.body.message, JSON.stringify(passed.body)).toBe('success');

    // What the provider received: its own documented fields (the empty token never left the server).
    const asked = seen.slice(before);
    expect(asked).toHaveLength(2);
    const last = asked[1] as Seen;
    if (name === 'geetest') {
      expect(last.query.get('captcha_id')).toBe(config.siteKey);
      expect(Object.fromEntries(last.form)).toEqual({
        lot_number: 'lot-123',
        captcha_output: 'output',
        pass_token: GOOD,
        gen_time: '1795836350',
        sign_token: createHmac('sha256', GEETEST_KEY).update('lot-123').digest('hex'),
      });
    } else {
      expect(last.form.get('secret')).toBe(config.secret);
      expect(last.form.get('response')).toBe(GOOD);
      expect(last.form.get('remoteip')).toBe(browser.remoteAddress);
      if (name === 'turnstile') expect(last.form.get('idempotency_key')).toMatch(new RegExp(`^${id}:1:\\d$`));
      else expect(last.form.get('sitekey')).toBe(config.siteKey);
    }
  });

  it('fails closed when the provider is down', async () => {
    const browser = server.browser();
    const data = await server.app.challenge.demand('/test/guarded', 'text');
    const id = (JSON.parse(Object.values(data)[0] as string) as { challenge_id: string }).challenge_id;
    await draw(browser, { challenge_id: id });
    const answer = await expectedAnswer(browser, id);
    down = true;
    try {
      const response = await verify(browser, {
        challenge_id: id,
        ...answerFields(answer),
        provider_token: tokenOf(name, true),
      });
      expect(response.body.data.error_code).toBe(ErrorCode.challengeProviderFailed);
    } finally {
      down = false;
    }
  });
});

describe('the provider settings', () => {
  it('refuse a provider without its secret, naming the variable', () => {
    expect(() => loadConfig({ CAPTCHA_PROVIDER: 'turnstile', TURNSTILE_SITE_KEY: 'k' })).toThrow(ConfigError);
    expect(() => loadConfig({ CAPTCHA_PROVIDER: 'geetest', GEETEST_KEY: 'k' })).toThrow(/GEETEST_ID/);
  });

  it('default to each provider’s documented endpoint and to "behind"', () => {
    const config = loadConfig({ CAPTCHA_PROVIDER: 'hcaptcha', HCAPTCHA_SITE_KEY: 's', HCAPTCHA_SECRET: 'x' });
    expect(config.captchaProvider).toEqual({
      name: 'hcaptcha',
      mode: 'behind',
      siteKey: 's',
      secret: 'x',
      verifyUrl: 'https://api.hcaptcha.com/siteverify',
    });
    expect(loadConfig({}).captchaProvider).toBeUndefined();
  });
});
