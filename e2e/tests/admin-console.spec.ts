import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { serverWithOperator, signedInApi } from '../support/operator';
import type { RunningServer } from '../support/server';
import { expect, Outbox, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// The admin console (docs/admin-console.md) in Chromium: an operator finds a person by mobile, ends
// their sessions (confirmed), sees it in the audit log; creates an API key (shown once) and a webhook
// endpoint to a receiver on loopback, and sees its delivery in the log; then changes the endpoint,
// disables and enables it, rotates its secret and deletes it. The operator's account is made
// on a first server, then named in OPERATOR_USER_IDS of a second one on the same DATA_DIR, with
// WEBHOOK_PRIVATE_TARGETS=on so an endpoint may point at loopback.

const signedIn = async (api: APIRequestContext) =>
  ((await (await api.get('/passport/web/account/info/')).json()) as { message: string }).message ===
  'success';

/** A webhook receiver on loopback: it answers 204 and keeps each request's headers and body. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/portico`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.describe('the admin console', () => {
  let dataDir: string;
  let server: RunningServer | undefined;
  let operator: APIRequestContext | undefined;
  let person: APIRequestContext | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

  test.beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'portico-e2e-admin-'));
    ({ server, operator } = await serverWithOperator(dataDir, { WEBHOOK_PRIVATE_TARGETS: 'on' }));
    receiver = await startReceiver();
  });

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus && server)
      await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' });
    await person?.dispose();
    await operator?.dispose();
    await receiver?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('an operator ends a person’s sessions and sees it in the audit log; makes a key and a webhook and sees a delivery', async ({
    browser,
  }) => {
    if (!server || !operator || !receiver) throw new Error('no server');
    const origin = server.origin;
    const mobile = uniqueMobile();
    person = await signedInApi(origin, new Outbox(origin), mobile);
    expect(await signedIn(person)).toBe(true);

    const context = await browser.newContext({ storageState: await operator.storageState() });
    const page = await context.newPage();
    await page.goto(`${origin}/admin`);
    await expect(page.getByRole('heading', { level: 1, name: '管理控制台' })).toBeVisible();
    await expect(page.getByRole('link', { name: '监控面板' })).toHaveAttribute(
      'href',
      '/workbench/monitoring',
    );

    // Users: find the person by their mobile, open them, end their sessions (confirmed).
    await page.getByLabel('手机号、邮箱、用户名或用户 ID').fill(mobile);
    await page.getByRole('button', { name: '查找', exact: true }).click();
    await page.getByRole('button', { name: `查看 ${mobile}` }).click();
    const detail = page.getByRole('region', { name: /用户详情/ });
    await expect(detail.getByRole('table', { name: '会话' }).getByRole('row')).toHaveCount(2);
    expect(await seriousViolations(page)).toEqual([]);
    await detail.getByRole('button', { name: '结束所有会话' }).click();
    const confirm = page.getByRole('alertdialog', { name: `结束 ${mobile} 的所有会话？` });
    await confirm.getByRole('button', { name: '结束所有会话' }).click();
    await expect(detail.getByRole('status')).toHaveText('已结束 1 个会话。');
    expect(await signedIn(person)).toBe(false);
    await expect(detail.getByText('没有有效的会话。')).toBeVisible();

    // The audit log names the operator's change (written from the outbox a moment later).
    await page.getByRole('tab', { name: '审计日志' }).click();
    const filters = page.getByRole('form', { name: '筛选审计日志' });
    await filters.getByLabel('事件类型（如 account. ）').fill('account.sessions_revoked');
    await expect(async () => {
      await filters.getByRole('button', { name: '筛选' }).click();
      await expect(page.getByRole('table', { name: '审计日志' }).getByRole('row')).toHaveCount(2, {
        timeout: 2_000,
      });
    }).toPass();

    // API keys: one made with two scopes, shown once.
    await page.getByRole('tab', { name: 'API 密钥' }).click();
    const keyForm = page.getByRole('form', { name: '创建 API 密钥' });
    await keyForm.getByLabel('名称').fill('reports');
    await keyForm.getByRole('checkbox', { name: /读取审计日志/ }).check();
    await keyForm.getByRole('button', { name: '创建密钥' }).click();
    await expect(keyForm.locator('output code')).toHaveText(/^portico_sk_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('cell', { name: 'users:read audit:read' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Webhooks: an endpoint to the receiver for key events, then an event for it: revoking the key.
    await page.getByRole('tab', { name: 'Webhook' }).click();
    const hookForm = page.getByRole('form', { name: '添加 Webhook 端点' });
    await hookForm.getByLabel('接收地址（URL）').fill(receiver.url);
    await hookForm.getByLabel('事件类型（空格分隔，留空为全部）').fill('operator.');
    await hookForm.getByRole('button', { name: '添加端点' }).click();
    const signingSecret = hookForm.locator('output code');
    await expect(signingSecret).toHaveText(/^whsec_/);
    const secret = (await signingSecret.textContent()) ?? '';

    await page.getByRole('tab', { name: 'API 密钥' }).click();
    await page.getByRole('button', { name: '吊销 reports' }).click();
    await page
      .getByRole('alertdialog', { name: '吊销密钥 reports？' })
      .getByRole('button', { name: '吊销' })
      .click();
    await expect(page.getByRole('cell', { name: '已吊销' })).toBeVisible();
    await expect.poll(() => receiver?.received.length ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const delivered = receiver.received[0];
    if (!delivered) throw new Error('no delivery');
    // The receiver checks the delivery as a subscriber would: the Standard Webhooks signature over the
    // body with the secret shown once (verify throws on a wrong signature or a stale timestamp).
    const header = (name: string) => String(delivered.headers[name] ?? '');
    const event = new Webhook(secret).verify(delivered.body, {
      'webhook-id': header('webhook-id'),
      'webhook-timestamp': header('webhook-timestamp'),
      'webhook-signature': header('webhook-signature'),
    }) as { type: string };
    expect(event.type).toBe('operator.api_key_revoked');

    // The delivery log shows it delivered, with the receiver's status.
    await page.getByRole('tab', { name: 'Webhook' }).click();
    await page.getByRole('button', { name: `投递记录：${receiver.url}` }).click();
    const log = page.getByRole('region', { name: /投递记录/ });
    await expect(async () => {
      await log.getByRole('button', { name: '刷新' }).click();
      await expect(log.getByRole('row').filter({ hasText: 'operator.api_key_revoked' })).toContainText(
        '成功',
        {
          timeout: 2_000,
        },
      );
    }).toPass();
    await expect(log.getByRole('row').filter({ hasText: 'operator.api_key_revoked' })).toContainText('204');
    expect(await seriousViolations(page)).toEqual([]);

    // The endpoint changed from the screen: its event types, disabled (confirmed) and enabled again,
    // its secret rotated (shown once), then deleted (confirmed).
    await page.getByRole('button', { name: `编辑 ${receiver.url}` }).click();
    const editForm = page.getByRole('form', { name: '编辑端点' });
    await editForm.getByLabel('事件类型（空格分隔，留空为全部）').fill('operator. account.');
    await editForm.getByRole('button', { name: '保存' }).click();
    await expect(page.getByRole('cell', { name: 'operator. account.' })).toBeVisible();
    await page.getByRole('button', { name: '停用', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: `停用端点 ${receiver.url}？` })
      .getByRole('button', { name: '停用' })
      .click();
    await expect(page.getByRole('cell', { name: '已停用' })).toBeVisible();
    await page.getByRole('button', { name: `启用 ${receiver.url}` }).click();
    await expect(page.getByRole('cell', { name: '启用中' })).toBeVisible();
    await page.getByRole('button', { name: '轮换签名密钥' }).click();
    await page
      .getByRole('alertdialog', { name: `轮换 ${receiver.url} 的签名密钥？` })
      .getByRole('button', { name: '轮换签名密钥' })
      .click();
    const rotated = page.getByRole('status').filter({ hasText: '新的签名密钥' }).locator('output code');
    await expect(rotated).toHaveText(/^whsec_/);
    expect(await rotated.textContent()).not.toBe(secret);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: '删除', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: `删除端点 ${receiver.url}？` })
      .getByRole('button', { name: '删除' })
      .click();
    await expect(page.getByText('还没有 Webhook 端点。')).toBeVisible();

    // A phone's width: the console fits, its tables scroll sideways inside their box.
    await page.setViewportSize({ width: 375, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await context.close();
  });
});
