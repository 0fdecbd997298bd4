import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { startServer } from './support/server';

/**
 * The test clock (TEST_CLOCK=on) that end-to-end tests use to pass the cancellation cooling-off period:
 * off by default, refused on a public origin, and when on, /dev/clock moves time forward only.
 */
describe('the test clock', () => {
  it('is off by default: no /dev/clock route, the server keeps real time', async () => {
    const server = await startServer();
    try {
      expect(server.config.testClock).toBe(false);
      const response = await server.browser().post('/dev/clock', { advance_ms: 86_400_000 });
      expect(response.status).toBe(404);
      expect(Math.abs(server.app.runtime.now() - Date.now())).toBeLessThan(60_000);
    } finally {
      await server.close();
    }
  });

  it('is refused on a public origin, whatever else is set', () => {
    expect(() =>
      loadConfig({ TEST_CLOCK: 'on', PUBLIC_ORIGIN: 'https://id.example.com', DEV_OUTBOX: 'off' }),
    ).toThrow(ConfigError);
    expect(loadConfig({ TEST_CLOCK: 'on' }).testClock).toBe(true);
  });

  it('when on, moves the clock forward (never back) through a CSRF-checked POST', async () => {
    const server = await startServer({ testClock: true });
    try {
      const browser = server.browser();
      const before = server.app.runtime.now();
      const moved = await browser.post('/dev/clock', { advance_ms: 16 * 86_400_000 });
      expect(moved.status).toBe(200);
      expect(moved.body.data.now).toBeGreaterThanOrEqual(before + 16 * 86_400_000);
      expect(server.app.runtime.now()).toBeGreaterThanOrEqual(before + 16 * 86_400_000);
      const back = await browser.post('/dev/clock', { advance_ms: -1 });
      expect(back.status).toBe(400);
      browser.sendCsrf = false;
      expect((await browser.post('/dev/clock', { advance_ms: 1 })).status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
