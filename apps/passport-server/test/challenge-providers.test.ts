import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaptchaProviderConfig, ConfigError, loadConfig } from '../src/config';
import { ErrorCode, paths } from '../src/protocol';
import {
  type CaptchaProviderPeer,
  GEETEST_KEY,
  GOOD,
  PEER_PATHS,
  SECRETS,
  type SeenRequest,
  startCaptchaProviderPeer,
} from './support/captcha-provider-peer';
import { answerFields, draw, expectedAnswer, guardedRoutes, verify } from './support/challenge';
import { freshEmail, startServer, type TestServer } from './support/server';

/**
 * Issue 10, item 4: Cloudflare Turnstile, hCaptcha and GeeTest behind or instead of our puzzles, each
 * verified through its server-side API. The providers are a real HTTP server on loopback speaking each
 * one's documented request and answer shape (test/support/captcha-provider-peer.ts, shared with e2e).
 */

let peer: CaptchaProviderPeer;
let origin = '';

beforeAll(async () => {
  peer = await startCaptchaProviderPeer();
  origin = peer.origin;
});
afterAll(async () => {
  await peer?.close();
});

const PROVIDERS: Record<CaptchaProviderConfig['name'], () => CaptchaProviderConfig> = {
  turnstile: () => ({
    name: 'turnstile',
    mode: 'behind',
    siteKey: '1x00000000000000000000AA',
    secret: SECRETS.turnstile,
    verifyUrl: `${origin}${PEER_PATHS.turnstileVerify}`,
    scriptUrl: `${origin}${PEER_PATHS.turnstileScript}?render=explicit`,
  }),
  hcaptcha: () => ({
    name: 'hcaptcha',
    mode: 'instead',
    siteKey: '10000000-ffff-ffff-ffff-000000000001',
    secret: SECRETS.hcaptcha,
    verifyUrl: `${origin}${PEER_PATHS.hcaptchaVerify}`,
    scriptUrl: `${origin}${PEER_PATHS.hcaptchaScript}?render=explicit`,
  }),
  geetest: () => ({
    name: 'geetest',
    mode: 'behind',
    siteKey: 'geetest-captcha-id',
    secret: GEETEST_KEY,
    verifyUrl: `${origin}${PEER_PATHS.geetestVerify}`,
    scriptUrl: 'https://static.geetest.com/v4/gt4.js',
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

  it('stands as the recaptcha_token of the no-verify e-mail registration; a refused one is a challenge', async () => {
    const browser = server.browser();
    const email = freshEmail();
    const register = (token: string) =>
      browser.post(paths.web.emailRegister, {
        email,
        password: 'a long enough passphrase',
        recaptcha_token: token,
      });
    const before = peer.seen.length;
    const refused = await register(tokenOf(name, false));
    expect(refused.body.data.error_code).toBe(ErrorCode.challengeRequired);
    const sent = await register(tokenOf(name, true));
    expect(sent.body).toMatchObject({ message: 'success', data: { link_sent: true } });
    expect(peer.seen.slice(before)).toHaveLength(2);
  });

  it('is verified through its documented siteverify shape; a refused or missing token fails with 1408', async () => {
    const config = PROVIDERS[name]();
    const browser = server.browser();
    const data = await server.app.challenge.demand('/test/guarded', 'text');
    const id = (JSON.parse(Object.values(data)[0] as string) as { challenge_id: string }).challenge_id;
    const drawn = await draw(browser, { challenge_id: id });
    expect(drawn.body.data.provider).toEqual({
      name,
      site_key: config.siteKey,
      mode: config.mode,
      script_url: config.scriptUrl,
    });
    if (config.mode === 'instead') expect(drawn.body.data.image).toBe('');
    else expect(drawn.body.data.image).toMatch(/^data:image\/png;base64,/);
    const answer = await expectedAnswer(browser, id);

    const before = peer.seen.length;
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
    const asked = peer.seen.slice(before);
    expect(asked).toHaveLength(2);
    const last = asked[1] as SeenRequest;
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
    peer.down = true;
    try {
      const response = await verify(browser, {
        challenge_id: id,
        ...answerFields(answer),
        provider_token: tokenOf(name, true),
      });
      expect(response.body.data.error_code).toBe(ErrorCode.challengeProviderFailed);
    } finally {
      peer.down = false;
    }
  });
});

describe('a fall-back round (the widget could not run in the page)', () => {
  const challengeOf = async (server: TestServer) => {
    const data = await server.app.challenge.demand('/test/guarded', 'text');
    return (JSON.parse(Object.values(data)[0] as string) as { challenge_id: string }).challenge_id;
  };

  it('behind: the picture alone passes, at the same proof of work, and the provider is not asked', async () => {
    const server = await startServer(
      { captchaProvider: PROVIDERS.turnstile() },
      { plugins: [guardedRoutes] },
    );
    try {
      const browser = server.browser();
      const id = await challengeOf(server);
      const usual = await draw(browser, { challenge_id: id });
      const fallback = await draw(browser, { challenge_id: id, without_provider: '1' });
      expect(fallback.body.data.provider).toBeUndefined();
      expect(fallback.body.data.image).toMatch(/^data:image\/png;base64,/);
      // The same price as the picture with its provider (one more draw from this address may raise it).
      expect(fallback.body.data.pow.limit).toBeGreaterThanOrEqual(usual.body.data.pow.limit);
      const before = peer.seen.length;
      const passed = await verify(browser, {
        challenge_id: id,
        ...answerFields(await expectedAnswer(browser, id)),
      });
      expect(passed.body.message, JSON.stringify(passed.body)).toBe('success');
      expect(peer.seen.length).toBe(before);
    } finally {
      await server.close();
    }
  });

  it('instead: there is no picture to fall back on, so the provider stays in front', async () => {
    const server = await startServer({ captchaProvider: PROVIDERS.hcaptcha() }, { plugins: [guardedRoutes] });
    try {
      const browser = server.browser();
      const id = await challengeOf(server);
      const drawn = await draw(browser, { challenge_id: id, without_provider: '1' });
      expect(drawn.body.data.provider?.name).toBe('hcaptcha');
      expect(drawn.body.data.image).toBe('');
      const refused = await verify(browser, { challenge_id: id });
      expect(refused.body.data.error_code).toBe(ErrorCode.challengeProviderFailed);
    } finally {
      await server.close();
    }
  });
});

describe('the last try', () => {
  it('refused by the provider is 1408 with tries_left 0, so the page knows the token was spent (regression: it was 1402, and the overlay re-sent the spent token with each new puzzle)', async () => {
    const server = await startServer({ captchaProvider: PROVIDERS.hcaptcha() }, { plugins: [guardedRoutes] });
    try {
      const browser = server.browser();
      // whirl allows one try per puzzle.
      const data = await server.app.challenge.demand('/test/guarded', 'whirl');
      const id = (JSON.parse(Object.values(data)[0] as string) as { challenge_id: string }).challenge_id;
      await draw(browser, { challenge_id: id });
      const refused = await verify(browser, { challenge_id: id, provider_token: 'forged' });
      expect(refused.body.data).toMatchObject({
        error_code: ErrorCode.challengeProviderFailed,
        tries_left: 0,
      });
      // The puzzle is dead; a fresh one and a good token pass.
      await draw(browser, { challenge_id: id });
      const passed = await verify(browser, { challenge_id: id, provider_token: GOOD });
      expect(passed.body.message, JSON.stringify(passed.body)).toBe('success');
    } finally {
      await server.close();
    }
  });
});

describe('the pages’ content security policy', () => {
  const policyOf = async (server: TestServer) =>
    String((await server.app.inject({ url: '/vc/setting?aid=1128' })).headers['content-security-policy']);

  it('lets in a provider’s documented hosts and its script’s own origin only while one is configured', async () => {
    const none = await startServer({});
    const turnstile = await startServer({ captchaProvider: PROVIDERS.turnstile() });
    const hcaptcha = await startServer({
      captchaProvider: {
        ...PROVIDERS.hcaptcha(),
        scriptUrl: 'https://js.hcaptcha.com/1/api.js?render=explicit',
      },
    });
    try {
      const plain = await policyOf(none);
      expect(plain).toContain("script-src 'self';");
      expect(plain).not.toMatch(/frame-src|cloudflare|hcaptcha|127\.0\.0\.1/);
      const withTurnstile = await policyOf(turnstile);
      expect(withTurnstile).toContain(`script-src 'self' ${origin} https://challenges.cloudflare.com;`);
      expect(withTurnstile).toContain(`frame-src 'self' ${origin} https://challenges.cloudflare.com`);
      expect(withTurnstile).toContain("frame-ancestors 'none'");
      const withHcaptcha = await policyOf(hcaptcha);
      for (const directive of ['script-src', 'frame-src', 'connect-src'])
        expect(withHcaptcha).toContain(
          `${directive} 'self' https://js.hcaptcha.com https://hcaptcha.com https://*.hcaptcha.com`,
        );
      // style-src keeps what it allowed before (https: and inline styles) and adds the provider.
      expect(withHcaptcha).toMatch(/style-src 'self' https: 'unsafe-inline' https:\/\/js\.hcaptcha\.com/);
    } finally {
      await Promise.all([none.close(), turnstile.close(), hcaptcha.close()]);
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
      scriptUrl: 'https://js.hcaptcha.com/1/api.js?render=explicit',
    });
    expect(
      loadConfig({
        CAPTCHA_PROVIDER: 'turnstile',
        TURNSTILE_SITE_KEY: 's',
        TURNSTILE_SECRET: 'x',
        TURNSTILE_SCRIPT_URL: 'https://static.example.com/turnstile.js',
      }).captchaProvider?.scriptUrl,
    ).toBe('https://static.example.com/turnstile.js');
    expect(loadConfig({}).captchaProvider).toBeUndefined();
  });
});
