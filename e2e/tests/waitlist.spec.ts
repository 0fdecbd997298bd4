import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { serverWithOperator } from '../support/operator';
import {
  expectWorkbench,
  letResendCooldownPass,
  PASSWORD,
  panel,
  sendCodeAndRead,
  typeCode,
  typeMobile,
} from '../support/person';
import type { RunningServer } from '../support/server';
import { expect, Outbox, PROMPTLY, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 18, the waitlist in Chromium: with WAITLIST=on a new person joins the waitlist on
// /join-waitlist, cannot register, is admitted by an operator on the monitoring page, follows the link
// from the outbox and registers. The operator's account exists from before the waitlist was turned on: a first server
// (WAITLIST off) creates it, a second one on the same DATA_DIR runs with WAITLIST=on and names it in
// OPERATOR_USER_IDS.

test.describe('the waitlist', () => {
  let dataDir: string;
  let server: RunningServer;
  let operator: APIRequestContext;

  test.beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portico-e2e-waitlist-'));
    ({ server, operator } = await serverWithOperator(dataDir, { WAITLIST: 'on' }));
  });

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus && server)
      await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' });
    await operator?.dispose();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a new person joins, cannot register, is admitted and registers with the link', async ({ page }) => {
    const outbox = new Outbox(server.origin);
    const mobile = uniqueMobile();

    // Joins the waitlist with a verified mobile and a note, and sees their place.
    await page.goto(`${server.origin}/join-waitlist`);
    await expect(page.getByRole('heading', { level: 1, name: '加入等候名单' })).toBeVisible();
    const form = panel(page);
    await typeMobile(form, mobile);
    await typeCode(form, await sendCodeAndRead(form, outbox, mobile));
    await form.getByLabel('备注（可选）').fill('想试用');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: '加入等候名单' }).click();
    await expect(page.getByTestId('waitlist-place')).toHaveText(/排在第 1 位/);

    // Tries to register: the passport refuses, the page sends them to the waitlist with the reason.
    await page.goto(`${server.origin}/sign-up`);
    const signUp = panel(page);
    await typeMobile(signUp, mobile);
    // The join's code went out a moment ago: let the one-a-minute cooldown pass (support/person.ts).
    letResendCooldownPass({ ...server, dataDir }, mobile);
    await typeCode(signUp, await sendCodeAndRead(signUp, outbox, mobile));
    await signUp.getByLabel('设置密码', { exact: true }).fill(PASSWORD);
    await signUp.getByLabel('再次输入新密码', { exact: true }).fill(PASSWORD);
    await signUp.getByRole('checkbox', { name: /^我已阅读并同意/ }).check();
    await signUp.getByRole('button', { name: '注册并登录' }).click();
    await expect(page).toHaveURL(/\/join-waitlist\?reason=required$/);
    await expect(page.getByRole('alert')).toHaveText(/注册需要排队/);

    // The operator opens the monitoring page in a browser with their session, finds the entry and admits it.
    const context = await page
      .context()
      .browser()
      ?.newContext({ locale: 'zh-CN', storageState: await operator.storageState() });
    if (!context) throw new Error('no browser for the operator');
    const operatorPage = await context.newPage();
    await operatorPage.goto(`${server.origin}/workbench/monitoring`);
    const waitlist = operatorPage.getByRole('region', { name: '候补名单' });
    const row = waitlist.getByRole('row').filter({ hasText: '想试用' });
    await expect(row).toHaveCount(1);
    expect(await seriousViolations(operatorPage)).toEqual([]);
    await row.getByRole('button', { name: /^准许 / }).click();
    await expect(row).toHaveCount(0);
    await context.close();

    // The link arrives; following it, the person registers and lands on the workbench.
    let link = '';
    await expect
      .poll(async () => {
        link =
          (await outbox.messages(mobile))
            .map((m) => /https?:\/\/\S+waitlist_token=\S+/.exec(m.text)?.[0])
            .find(Boolean) ?? '';
        return link;
      }, PROMPTLY)
      .toContain('/sign-up?waitlist_token=');
    await page.goto(link);
    const again = panel(page);
    await typeMobile(again, mobile);
    letResendCooldownPass({ ...server, dataDir }, mobile);
    await typeCode(again, await sendCodeAndRead(again, outbox, mobile));
    await again.getByLabel('设置密码', { exact: true }).fill(PASSWORD);
    await again.getByLabel('再次输入新密码', { exact: true }).fill(PASSWORD);
    await again.getByRole('checkbox', { name: /^我已阅读并同意/ }).check();
    await again.getByRole('button', { name: '注册并登录' }).click();
    await expectWorkbench(page, server, { mobile });
  });
});
