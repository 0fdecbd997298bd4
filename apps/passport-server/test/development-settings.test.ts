import { describe, expect, it } from 'vitest';
import { startBanner } from '../src/banner';
import { ConfigError, loadConfig } from '../src/config';
import { normaliseMobile } from '../src/lib/identifiers';
import { CodeType, ErrorCode, paths } from '../src/protocol';
import { codeFor, freshMobile, startServer } from './support/server';

/**
 * Issue 11, item 6: development that does not fight the developer. The numbers reserved for fiction
 * are accepted on a loopback origin only, and RISK_THRESHOLDS=relaxed (loopback only) lets a developer
 * send code after code without a captcha. Both run on the real server (SQLite, PostgreSQL, Redis).
 */

let fiction = 0;
/** A fresh number of the UK's drama range, 07700 900000–900999. */
function fictionalMobile(): string {
  fiction += 1;
  return `+447700900${String((process.pid + fiction) % 1000).padStart(3, '0')}`;
}

describe('numbers reserved for fiction', () => {
  it('are valid only when asked for: the UK drama range, nothing around it', () => {
    expect(normaliseMobile('+44 7700 900123', 'CN')).toBeNull();
    expect(normaliseMobile('+44 7700 900123', 'CN', { fictional: true })).toEqual({
      e164: '+447700900123',
      country: 'GB',
    });
    expect(normaliseMobile('07700 900999', 'GB', { fictional: true })?.e164).toBe('+447700900999');
    expect(normaliseMobile('+44 7700 901000', 'CN', { fictional: true })).toBeNull();
    expect(normaliseMobile('+44 7700 90012', 'CN', { fictional: true })).toBeNull();
  });

  it('follow the origin: a loopback PUBLIC_ORIGIN is development, any other is production', () => {
    expect(loadConfig({}).fictionalNumbers).toBe(true);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://id.example.com', DEV_OUTBOX: 'off' }).fictionalNumbers).toBe(
      false,
    );
  });

  it('receive a code in development and sign in with it', async () => {
    const server = await startServer({ fictionalNumbers: true });
    try {
      const browser = server.browser();
      const mobile = fictionalMobile();
      const sent = await browser.post(paths.web.sendCode, { mobile, type: CodeType.mobileLogin });
      expect(sent.body.message).toBe('success');
      const code = await codeFor(server.app, mobile);
      const signedIn = await browser.post(paths.web.smsLogin, { mobile, code });
      expect(signedIn.body.message).toBe('success');
    } finally {
      await server.close();
    }
  });

  it('are refused in production with the error any invalid number gets', async () => {
    const server = await startServer({ fictionalNumbers: false, publicOrigin: 'https://id.example.com' });
    try {
      const browser = server.browser();
      const sent = await browser.post(paths.web.sendCode, {
        mobile: fictionalMobile(),
        type: CodeType.mobileLogin,
      });
      const invalid = await browser.post(paths.web.sendCode, {
        mobile: '+44 123',
        type: CodeType.mobileLogin,
      });
      expect(sent.body.data.error_code).toBe(ErrorCode.invalidMobile);
      expect(sent.body).toEqual(invalid.body);
    } finally {
      await server.close();
    }
  });
});

describe('RISK_THRESHOLDS', () => {
  it('is default unless set, relaxed on a loopback origin, refused on a public one', () => {
    expect(loadConfig({}).riskThresholds).toBe('default');
    expect(loadConfig({ RISK_THRESHOLDS: 'relaxed' }).riskThresholds).toBe('relaxed');
    const publicStart = () =>
      loadConfig({ RISK_THRESHOLDS: 'relaxed', PUBLIC_ORIGIN: 'https://id.example.com', DEV_OUTBOX: 'off' });
    expect(publicStart).toThrow(ConfigError);
    expect(publicStart).toThrow(/RISK_THRESHOLDS.*not a loopback origin/);
    expect(() => loadConfig({ RISK_THRESHOLDS: 'off' })).toThrow(/RISK_THRESHOLDS/);
  });

  // The default counts (5 sends per address in 10 minutes), as a server outside the harness has them.
  const defaults = {
    challengeAfterSendsPerIp: 5,
    challengeAfterSendsPerDevice: 5,
    challengeAfterSendsPerTarget: 3,
  };
  const sendSix = async (riskThresholds: 'default' | 'relaxed') => {
    const server = await startServer({ riskThresholds }, { limits: defaults });
    try {
      const browser = server.browser();
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) {
        const sent = await browser.post(paths.web.sendCode, {
          mobile: freshMobile(),
          type: CodeType.mobileLogin,
        });
        codes.push(sent.body.message === 'success' ? 0 : sent.body.data.error_code);
      }
      return { codes, limits: server.app.runtime.limits };
    } finally {
      await server.close();
    }
  };

  it('default: the sixth send from one address in ten minutes needs a captcha', async () => {
    const { codes } = await sendSix('default');
    expect(codes).toEqual([0, 0, 0, 0, 0, ErrorCode.challengeRequired]);
  });

  it('relaxed: a hundred times the counts, the sixth send goes out', async () => {
    const { codes, limits } = await sendSix('relaxed');
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(limits.challengeAfterSendsPerIp).toBe(500);
  });
});

/**
 * Development switches only on loopback: a loopback PUBLIC_ORIGIN says who the users are, the listen
 * address says who can reach the server. With HOST=0.0.0.0 (a container, a LAN) the default origin is
 * still localhost, and every development switch was on for the network, while the banner said "readable
 * by this machine".
 */
describe('a non-loopback listen address', () => {
  it('refuses to start with the dev outbox on by default: DEV_OUTBOX must be set, on or off', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20']) {
      expect(() => loadConfig({ HOST })).toThrow(ConfigError);
      expect(() => loadConfig({ HOST })).toThrow(/DEV_OUTBOX.*0\.0\.0\.0|DEV_OUTBOX/);
      expect(loadConfig({ HOST, DEV_OUTBOX: 'on' }).devOutbox).toBe('on');
      expect(loadConfig({ HOST, DEV_OUTBOX: 'off' }).devOutbox).toBe('off');
    }
    // Loopback listen addresses are development as before.
    for (const HOST of ['127.0.0.1', '::1', 'localhost', '127.0.0.2'])
      expect(loadConfig({ HOST }).devOutbox).toBe('auto');
  });

  it('refuses TEST_CLOCK=on and RISK_THRESHOLDS=relaxed unless DEV_NETWORK=on says so', () => {
    const base = { HOST: '0.0.0.0', DEV_OUTBOX: 'off' };
    expect(() => loadConfig({ ...base, TEST_CLOCK: 'on' })).toThrow(/TEST_CLOCK/);
    expect(() => loadConfig({ ...base, RISK_THRESHOLDS: 'relaxed' })).toThrow(/RISK_THRESHOLDS/);
    const asked = loadConfig({ ...base, TEST_CLOCK: 'on', RISK_THRESHOLDS: 'relaxed', DEV_NETWORK: 'on' });
    expect(asked.testClock).toBe(true);
    expect(asked.riskThresholds).toBe('relaxed');
    // On loopback nothing needs saying; on a public origin DEV_NETWORK changes nothing.
    expect(loadConfig({ TEST_CLOCK: 'on' }).testClock).toBe(true);
    expect(() =>
      loadConfig({
        PUBLIC_ORIGIN: 'https://id.example.com',
        DEV_OUTBOX: 'off',
        TEST_CLOCK: 'on',
        DEV_NETWORK: 'on',
      }),
    ).toThrow(/TEST_CLOCK/);
  });

  it('the banner says what is exposed to whom', async () => {
    const bannerOf = async (overrides: Parameters<typeof startServer>[0]) => {
      const server = await startServer(overrides);
      try {
        return startBanner(server.config, server.app);
      } finally {
        await server.close();
      }
    };
    const network = await bannerOf({
      host: '0.0.0.0',
      devOutbox: 'on',
      testClock: true,
      riskThresholds: 'relaxed',
    });
    expect(network).not.toContain('readable by this machine');
    expect(network).toMatch(/dev outbox .*readable by anyone who can reach 0\.0\.0\.0:\d+/);
    expect(network).toMatch(/test clock .*anyone who can reach 0\.0\.0\.0:\d+/);
    expect(network).toMatch(/relaxed risk thresholds .*anyone who can reach 0\.0\.0\.0:\d+/);
    const local = await bannerOf({ testClock: true, riskThresholds: 'relaxed' });
    expect(local).toMatch(/dev outbox .*readable by this machine/);
    expect(local).toMatch(/test clock .*this machine/);
    expect(local).toMatch(/relaxed risk thresholds .*this machine/);
  });
});

describe('POW_DIFFICULTY', () => {
  it('is default unless set, test on a loopback origin and address, refused anywhere else', () => {
    expect(loadConfig({}).powDifficulty).toBe('default');
    expect(loadConfig({ POW_DIFFICULTY: 'test' }).powDifficulty).toBe('test');
    const publicStart = () =>
      loadConfig({ POW_DIFFICULTY: 'test', PUBLIC_ORIGIN: 'https://id.example.com', DEV_OUTBOX: 'off' });
    expect(publicStart).toThrow(ConfigError);
    expect(publicStart).toThrow(/POW_DIFFICULTY.*not loopback/);
    // A loopback origin served to the network (HOST=0.0.0.0) prices the challenge for everyone on it.
    expect(() => loadConfig({ POW_DIFFICULTY: 'test', HOST: '0.0.0.0', DEV_OUTBOX: 'off' })).toThrow(
      /POW_DIFFICULTY/,
    );
    expect(() => loadConfig({ POW_DIFFICULTY: 'cheap' })).toThrow(/POW_DIFFICULTY/);
  });

  it('test: the proof of work a thousand times cheaper; default: the production price', async () => {
    for (const powDifficulty of ['default', 'test'] as const) {
      // The production numbers (the harness otherwise starts every server cheap).
      const production = { powCost: 5_000, powAttempts: 500, powPersonCap: 5_000, powBotAttempts: 100_000 };
      const server = await startServer({ powDifficulty }, { limits: production });
      try {
        const limits = server.app.challenge.limits;
        const price = limits.powCost * limits.powPersonCap;
        if (powDifficulty === 'test') expect(price).toBeLessThanOrEqual((5_000 * 5_000) / 800);
        else expect(price).toBe(5_000 * 5_000);
      } finally {
        await server.close();
      }
    }
  });
});
