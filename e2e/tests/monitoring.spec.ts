import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { serverWithOperator } from '../support/operator';
import { expectWorkbench, startSmsSignIn, typeCode } from '../support/person';
import type { RunningServer } from '../support/server';
import { expect, Outbox, PROMPTLY, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 18, monitoring in Chromium: a person signs in on /login by SMS code, a JavaScript error is
// thrown on the page, the monitor (loaded after first paint) sends the funnel steps and the error to
// /monitor/batch/, and an operator sees both counted on /workbench/monitoring. The operator's account
// is made on a first server, then named in OPERATOR_USER_IDS of a second one on the same DATA_DIR.
// Page views are sampled at 0.01 per session, so the spec asserts on the kinds always sampled
// (the funnel and JavaScript errors).

test.describe('monitoring', () => {
  let dataDir: string;
  let server: RunningServer | undefined;
  let operator: APIRequestContext | undefined;

  test.beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portico-e2e-monitoring-'));
    ({ server, operator } = await serverWithOperator(dataDir));
  });

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus && server)
      await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' });
    await operator?.dispose();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a sign-in and a JavaScript error on /login reach the operator dashboard', async ({
    page,
    browser,
  }) => {
    if (!server || !operator) throw new Error('no server');
    const origin = server.origin;
    const batches: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/monitor/batch/') batches.push(request.postData() ?? '');
    });

    const mobile = uniqueMobile();
    const { form, code } = await startSmsSignIn(page, server, new Outbox(origin), mobile);
    await typeCode(form, code);
    await form.getByRole('button', { name: '登录', exact: true }).click();
    await expectWorkbench(page, server, { mobile });

    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e boom');
      });
    });
    // The monitor sends a batch 1000 ms after its first event: wait until the error has left.
    await expect.poll(() => batches.some((body) => body.includes('e2e boom')), PROMPTLY).toBe(true);
    expect(batches.join('\n')).toContain('"signed_in"');
    expect(batches.join('\n')).not.toContain(mobile.slice(3));

    // The operator opens the dashboard in a browser with the operator's session.
    const context = await browser.newContext({
      locale: 'zh-CN',
      storageState: await operator.storageState(),
    });
    const dashboard = await context.newPage();
    await dashboard.goto(`${origin}/workbench/monitoring`);
    await expect(dashboard.getByRole('heading', { level: 1, name: '监控' })).toBeVisible();
    const funnel = dashboard.getByRole('region', { name: '登录漏斗' });
    const row = funnel.getByRole('row').filter({ hasText: 'mobile_code' });
    await expect(row).toHaveCount(1);
    const cells = row.getByRole('cell');
    // Day, app, method, visits, code sent, signed in, failed.
    await expect(cells.nth(5)).toHaveText('1');
    // The daily chart (uPlot on a canvas): an image named with each day's value, today's being 1.
    const today = new Date().toISOString().slice(0, 10);
    const chart = funnel.getByRole('img', { name: `每日登录次数: ${today} 1` });
    await expect(chart).toBeVisible();
    await expect(chart.locator('canvas')).toHaveCount(1);
    const errors = dashboard.getByRole('region', { name: 'JavaScript 错误' });
    await expect(errors.getByRole('row').filter({ hasText: 'e2e boom' }).getByRole('cell').nth(2)).toHaveText(
      '1',
    );
    expect(await seriousViolations(dashboard)).toEqual([]);
    await context.close();
  });
});
