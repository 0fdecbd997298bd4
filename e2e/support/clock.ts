import type { Page } from '@playwright/test';
import { expect } from './test';

/**
 * Moves the test server's clock forward (POST /dev/clock from the page, with its CSRF token). The
 * server must run with TEST_CLOCK=on (`serverOptions: { env: { TEST_CLOCK: 'on' } }`).
 */
export async function advanceServerClock(page: Page, ms: number): Promise<void> {
  const status = await page.evaluate(async (advance) => {
    const token = /(?:^|; )passport_csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const response = await fetch('/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tt-passport-csrf-token': token },
      body: `advance_ms=${advance}`,
    });
    return response.status;
  }, ms);
  expect(status).toBe(200);
}
