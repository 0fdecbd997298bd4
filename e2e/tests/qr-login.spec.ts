import { type BrowserContext, devices, type Page } from '@playwright/test';
import { wapLoginUrl } from '@portico/account-sdk';
import { signedInBySmsThroughApi } from '../support/account-api';
import { advanceServerClock } from '../support/clock';
import { expectWorkbench, panel, sendCodeAndRead, typeCode, typeMobile } from '../support/person';
import { decodeQr, pickShownNumber } from '../support/qr';
import type { RunningServer } from '../support/server';
import { expect, type NewContext, type Outbox, test, uniqueMobile } from '../support/test';

// Issue 15: QR sign-in in Chromium with two browsers. A desktop opens /login and picks the QR tab; the
// test reads the QR code from the page's pixels (a screenshot decoded by jsQR, as a phone camera would)
// and opens what it encodes on a phone (a phone-emulated context, signed in by SMS), which shows the
// request and asks for the number the desktop shows.

/** A phone (Pixel 7 emulation) signed in by SMS code (through the API: the phone's screens are not the subject). */
async function signedInPhone(newContext: NewContext, server: RunningServer, outbox: Outbox) {
  const context: BrowserContext = await newContext({ ...devices['Pixel 7'] });
  const page = await context.newPage();
  const mobile = uniqueMobile();
  await signedInBySmsThroughApi(page, server, outbox, { mobile });
  return { context, page, mobile };
}

/** The desktop on /login with the QR tab open; answers what its QR code encodes. */
async function desktopQr(page: Page, server: RunningServer): Promise<string> {
  await page.goto(`${server.origin}/login`);
  const tab = page.getByRole('tab', { name: '扫码登录', exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  return decodeQr(page);
}

test('the phone confirms the number the desktop shows, and the desktop lands on the workbench signed in', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const phone = await signedInPhone(newContext, server, outbox);
  try {
    const address = await desktopQr(page, server);
    expect(address).toMatch(new RegExp(`^${server.origin}/app/qr\\?token=[A-Za-z0-9_-]{43}$`));

    await phone.page.goto(address);
    await expect(phone.page.getByRole('heading', { level: 1, name: '扫码登录' })).toBeVisible();
    await expect(phone.page.getByText('有一台设备请求登录你的账号')).toBeVisible();
    // What asks: the desktop's browser and its place (Playwright's Desktop Chrome on this machine).
    await expect(phone.page.locator('.qr-confirm-request')).toContainText('Windows 上的 Chrome');
    await expect(phone.page.locator('.qr-confirm-request')).toContainText('本机（127.0.0.0/24）');

    await expect(page.getByText('已扫描，请在手机上确认')).toBeVisible();
    const number = (await page.locator('.qr-login-number').textContent())?.trim() ?? '';
    expect(number).toMatch(/^\d{2}$/);
    const pick = phone.page.getByRole('group', { name: '选择电脑屏幕上显示的数字' });
    await expect(pick.getByRole('button')).toHaveCount(3);
    await pick.getByRole('button', { name: number, exact: true }).click();
    await expect(
      phone.page.getByRole('heading', { level: 1, name: '已确认，电脑上即将完成登录' }),
    ).toBeVisible();

    await expectWorkbench(page, server, { mobile: phone.mobile });
  } finally {
    await phone.context.close();
  }
});

test('the phone cancels, and the desktop says so', async ({ page, newContext, server, outbox }) => {
  const phone = await signedInPhone(newContext, server, outbox);
  try {
    const address = await desktopQr(page, server);
    await phone.page.goto(address);
    await phone.page.getByRole('button', { name: '取消登录' }).click();
    await expect(phone.page.getByRole('heading', { level: 1, name: '已取消本次登录' })).toBeVisible();
    await expect(page.getByText('已在手机上取消登录')).toBeVisible();
    await expect(page.getByRole('img', { name: '登录二维码' })).toHaveCount(0);
    await expect(page).toHaveURL(`${server.origin}/login`);
  } finally {
    await phone.context.close();
  }
});

test.describe('a code that expires', () => {
  // The server runs on its test clock: the test moves it past the code's 120 s instead of waiting, so
  // a slow machine cannot let the code expire before its QR is read. The jump would move the clock for
  // every later test on a shared server, so this test has a server of its own.
  test.use({ serverOptions: { env: { TEST_CLOCK: 'on' } }, ownServer: true });

  test('the desktop waits past expiry and refreshes with one click; the expired code is refused on the phone', async ({
    page,
    newContext,
    server,
    outbox,
  }) => {
    const first = await desktopQr(page, server);
    await advanceServerClock(page, 121_000);
    // The desktop learns it at its next poll (at most 5 s apart while nothing changes).
    await expect(page.getByText('二维码已过期')).toBeVisible();
    await expect(page.getByRole('img', { name: '登录二维码' })).toHaveCount(0);
    await page.getByRole('button', { name: '刷新二维码' }).click();
    const second = await decodeQr(page);
    expect(second).not.toBe(first);

    // The expired code is refused on the phone.
    const phone = await signedInPhone(newContext, server, outbox);
    try {
      await phone.page.goto(first);
      await expect(phone.page.getByRole('alert')).toHaveText('二维码已过期，请刷新');
    } finally {
      await phone.context.close();
    }
  });
});

test('a phone that is not signed in is asked to sign in in the app’s screens, then confirms', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const phone = await newContext({ ...devices['Pixel 7'] });
  try {
    const phonePage = await phone.newPage();
    const address = await desktopQr(page, server);
    await phonePage.goto(address);
    await phonePage.getByRole('link', { name: '登录后确认' }).click();
    await expect(phonePage).toHaveURL(new RegExp(`^${server.origin}/app/login\\?next=`));
    const mobile = uniqueMobile();
    const form = panel(phonePage);
    await typeMobile(form, mobile);
    await typeCode(form, await sendCodeAndRead(form, outbox, mobile));
    await form.getByRole('button', { name: '登录', exact: true }).click();
    await expect(phonePage).toHaveURL(address);

    await pickShownNumber(page, phonePage);
    await expectWorkbench(page, server, { mobile });
  } finally {
    await phone.close();
  }
});

test('the wap login: the SDK’s address, the app’s sign-in in a phone layout, the login-success page, back to the service', async ({
  newContext,
  server,
  outbox,
}) => {
  const phone = await newContext({ ...devices['Pixel 7'] });
  try {
    const phonePage = await phone.newPage();
    const service = `${server.origin}/workbench`;
    await phonePage.goto(wapLoginUrl({ aid: 1128, source: 'app', baseUrl: server.origin }, { service }));
    await expect(phonePage).toHaveURL(new RegExp(`^${server.origin}/app/login\\?next=`));
    await expect(phonePage.getByRole('heading', { level: 1, name: '登录 Portico' })).toBeVisible();
    const mobile = uniqueMobile();
    const form = panel(phonePage);
    await typeMobile(form, mobile);
    await typeCode(form, await sendCodeAndRead(form, outbox, mobile));
    await form.getByRole('button', { name: '登录', exact: true }).click();
    // The login-success page hands back to the service (a plain browser: through the redirect rule).
    await expectWorkbench(phonePage, server, { mobile });
  } finally {
    await phone.close();
  }
});

test('inside the native app: the bridge scans, is asked for the session, and closes with the result', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const phone = await signedInPhone(newContext, server, outbox);
  try {
    // A stand-in for the native app (docs/app-bridge.md, version 1): it records every message and
    // answers at once; its scanner "reads" what the test put in localStorage.
    await phone.context.addInitScript(() => {
      const calls: { method: string; params: Record<string, unknown> }[] = [];
      const native = window as unknown as {
        nativeCalls: typeof calls;
        PorticoNativeBridge: { version: number; postMessage(message: string): void };
        porticoBridgeReceive?: (message: string) => void;
      };
      native.nativeCalls = calls;
      native.PorticoNativeBridge = {
        version: 1,
        postMessage(message: string) {
          const { id, method, params } = JSON.parse(message);
          calls.push({ method, params });
          const result =
            method === 'getSession'
              ? { signed_in: true }
              : method === 'scan'
                ? { text: localStorage.getItem('e2e.scan') }
                : {};
          setTimeout(() => native.porticoBridgeReceive?.(JSON.stringify({ id, ok: true, result })), 0);
        },
      };
    });
    const address = await desktopQr(page, server);
    await phone.page.goto(`${server.origin}/app/`);
    await phone.page.evaluate((text) => localStorage.setItem('e2e.scan', text), address);
    await phone.page.reload();
    await phone.page.getByRole('button', { name: '扫一扫' }).click();
    await expect(phone.page).toHaveURL(address);

    await pickShownNumber(page, phone.page);
    await phone.page.getByRole('button', { name: '完成' }).click();
    await expectWorkbench(page, server, { mobile: phone.mobile });
    const calls = await phone.page.evaluate(
      () => (window as unknown as { nativeCalls: { method: string; params: unknown }[] }).nativeCalls,
    );
    // The scan opened the confirmation inside the app (no page load): one page, every call in order.
    expect(calls.map((call) => call.method)).toEqual(['scan', 'getSession', 'close']);
    expect(calls[2]?.params).toEqual({ result: 'confirmed' });
  } finally {
    await phone.context.close();
  }
});
