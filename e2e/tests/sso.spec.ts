import type { Page } from '@playwright/test';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { signedInBySmsThroughApi } from '../support/account-api';
import { masked, sendCodeAndRead, typeCode, typeMobile } from '../support/person';
import type { RunningServer } from '../support/server';
import { type SsoService, startSsoService } from '../support/sso-service';
import { test as base, expect, type Outbox, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 8: central sign-in for a product's other services, in Chromium. A small service on 127.0.0.1
// (support/sso-service.ts) is registered in SSO_SERVICES; the person goes from it to the passport's
// /sso/login, comes back with a ticket, and the service's back end trades the ticket for the user.

// One service per worker, as the passport is one per worker: its port is in the passport's settings.
const test = base.extend<object, { service: SsoService }>({
  service: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const service = await startSsoService();
      try {
        await use(service);
      } finally {
        await service.stop();
      }
    },
    { scope: 'worker' },
  ],
  // The passport starts with the service registered (the service is up first: its port is its origin).
  serverOptions: async ({ service }, use) => {
    await use({ env: { SSO_SERVICES: service.origin } });
  },
});

// One group, run by one worker one test after another: the service, its passport and the worker that
// holds them start once in the run, not once in each worker.
test.describe.configure({ mode: 'default' });

/** The service knows its passport once the passport runs, and counts only this test's validations. */
test.beforeEach(({ service, server }) => {
  service.passport = server.origin;
  service.validations.length = 0;
});

/** Opens the service's front page and follows one of its links, as a person would. */
async function atService(page: Page, service: SsoService, link: '用 Portico 账号登录' | '退出登录') {
  await page.goto(service.origin);
  await page.getByRole('link', { name: link }).click();
}

/** A person signed in to the passport already (by SMS code, through the API); answers the mobile. */
async function signedInAlready(page: Page, server: RunningServer, outbox: Outbox): Promise<string> {
  const mobile = uniqueMobile();
  await signedInBySmsThroughApi(page, server, outbox, { mobile });
  return mobile;
}

/** The service's page after a successful callback, naming the person by the masked mobile. */
async function expectSignedInAtService(page: Page, service: SsoService, mobile: string) {
  await expect(page).toHaveURL(new RegExp(`^${service.callback.replace(/[.]/g, '\\.')}\\?ticket=ST-`));
  await expect(page.getByRole('heading', { level: 1, name: '示例服务：已登录' })).toBeVisible();
  await expect(page.getByText(masked(mobile))).toBeVisible();
}

test('a person signs in at /sso/login by SMS code and lands on the service with a ticket', async ({
  page,
  server,
  outbox,
  service,
}) => {
  const mobile = uniqueMobile();
  await atService(page, service, '用 Portico 账号登录');
  await expect(page).toHaveURL(new RegExp(`^${server.origin}/sso/login\\?`));
  // The sso app's sign-in page (apps/sso, from account-pages) names the service it signs in to.
  await expect(page.getByRole('heading', { level: 1, name: '登录 Portico 账号' })).toBeVisible();
  await expect(page.getByText(`登录后继续使用 ${new URL(service.origin).host}`)).toBeVisible();
  expect(await seriousViolations(page), 'axe on the sso sign-in page').toEqual([]);
  await page.getByRole('tab', { name: '短信验证码', exact: true }).click();
  const form = page.getByRole('tabpanel');
  await typeMobile(form, mobile);
  const code = await sendCodeAndRead(form, outbox, mobile);
  await typeCode(form, code);
  await form.getByRole('button', { name: '登录', exact: true }).click();

  await expectSignedInAtService(page, service, mobile);
  expect(service.validations).toHaveLength(1);
  const [first] = service.validations;
  expect(first?.answer).toMatchObject({ error_code: 0, data: { mobile: masked(mobile) } });
  // The ticket was good once: a second validation of it fails.
  expect((await service.validate(first?.ticket ?? '')).error_code).toBe(ErrorCode.ticketInvalid);
});

test('a browser signed in already goes straight through, and its ticket validates only once', async ({
  page,
  server,
  outbox,
  service,
}) => {
  const mobile = await signedInAlready(page, server, outbox);
  await atService(page, service, '用 Portico 账号登录');

  await expectSignedInAtService(page, service, mobile);
  expect(service.validations).toHaveLength(1);
  const [first] = service.validations;
  expect(first?.ticket).toMatch(/^ST-[A-Za-z0-9_-]{43}$/);
  expect(first?.answer.error_code).toBe(0);
  const again = await service.validate(first?.ticket ?? '');
  expect(again.error_code).toBe(ErrorCode.ticketInvalid);
  // The browser reloading the callback spends nothing new: the ticket is gone.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: '示例服务：登录失败' })).toBeVisible();
});

test('an unregistered service gets the error page, never a redirect', async ({ page, server, outbox }) => {
  await signedInAlready(page, server, outbox);
  const evil = 'https://evil.example.net/collect';
  const response = await page.goto(`${server.origin}/sso/login?service=${encodeURIComponent(evil)}`);
  expect(response?.status()).toBe(400);
  await expect(page).toHaveURL(new RegExp(`^${server.origin}/sso/login\\?`));
  await expect(page.getByRole('heading', { level: 1, name: '无法登录该服务' })).toBeVisible();
  await expect(page.getByText(`错误码: ${ErrorCode.redirectNotAllowed}`)).toBeVisible();
  await expect(page.getByRole('link')).toHaveCount(0);
  expect(await seriousViolations(page), 'axe on the error page').toEqual([]);
});

test("sign-out from the service's link ends the session and returns to the service", async ({
  page,
  server,
  outbox,
  service,
}) => {
  await signedInAlready(page, server, outbox);
  await atService(page, service, '退出登录');

  // A link from another site does not sign out by itself: the passport asks (issue 9, item 8), and
  // the session holds until the person presses the button.
  await expect(page.getByRole('heading', { level: 1, name: '退出登录？' })).toBeVisible();
  expect(await seriousViolations(page), 'axe on the confirmation page').toEqual([]);
  const before = await page.request.get(`${server.origin}/passport/web/account/info/`);
  expect((await before.json()).message).toBe('success');
  await page.getByRole('button', { name: '退出登录' }).first().click();

  await expect(page).toHaveURL(service.signedOut);
  await expect(page.getByRole('heading', { level: 1, name: '示例服务：已退出' })).toBeVisible();
  const info = await page.request.get(`${server.origin}/passport/web/account/info/`);
  expect((await info.json()).data.error_code).toBe(ErrorCode.notLoggedIn);
  // Back at the service's sign-in, the passport asks again instead of handing out a ticket.
  await atService(page, service, '用 Portico 账号登录');
  await expect(page).toHaveURL(new RegExp(`^${server.origin}/sso/login\\?`));
  await expect(page.getByRole('heading', { level: 1, name: '登录 Portico 账号' })).toBeVisible();
  expect(service.validations).toHaveLength(0);
});
