import type { Page, Request, Response } from '@playwright/test';
import { decodeMixedFields, LANGUAGE_COOKIE } from '@portico/account-sdk/protocol';
import { registerElsewhere } from '../support/account-api';
import {
  call,
  callResult,
  formOf,
  handleSecondVerifyInApp,
  openFixture,
  requestsTo,
  secondVerifications,
  startCall,
} from '../support/fixture-page';
import type { RunningServer } from '../support/server';
import { expect, type Outbox, test, uniqueMobile } from '../support/test';

// Issue 4: second verification. A password sign-in of an account with a mobile, from a browser (device:
// fingerprint + did) the account has not used, answers 2046 with an `sms_code_key`. The plain SDK has no
// dialog of its own: `secondVerifyPlugin` needs `dialog.open` handed in (or the app's `onSecondVerify`).
// The dialog the product ships is account-react's, which `<AccountProvider>` installs; the web app served
// by the server mounts it, so the dialog tests act as a person on its /login page. The app's callback
// option is SDK-level and runs on the fixture page.

const PASSWORD = 'correct horse battery staple';
const PASSWORD_LOGIN = '/passport/web/user/login/';
const SEND_CODE = '/passport/web/send_code/';
const CONTINUE = '/passport/web/sms_login_continue/';
const ACCOUNT_INFO = '/passport/web/account/info/';

interface Account {
  mobile: string;
  userId: string;
}

/**
 * An account with a mobile and a password, registered through the real API on a browser of its own (its
 * "phone", support/account-api.ts): a type-1 code, read from the outbox, exchanged for a verify ticket,
 * then register. That browser is the account's one remembered device; every browser context of the
 * test is a new device.
 */
async function accountRegisteredElsewhere(page: Page, server: RunningServer, outbox: Outbox) {
  const mobile = uniqueMobile();
  const userId = await registerElsewhere(page, server, outbox, { mobile, password: PASSWORD });
  return { mobile, userId } satisfies Account;
}

/** The web app's password sign-in, as a person fills it in. */
async function signInByPassword(page: Page, origin: string, account: Account, language: 'en' | 'zh') {
  const en = language === 'en';
  await page.goto(`${origin}/login`);
  await page.getByRole('tab', { name: en ? 'Password' : '密码' }).click();
  await page
    .getByRole('textbox', { name: en ? 'Mobile, e-mail or username' : '手机号、邮箱或用户名' })
    .fill(account.mobile);
  await page.getByRole('textbox', { name: en ? 'Password' : '密码', exact: true }).fill(PASSWORD);
  await signInButton(page, language).click();
}

const signInButton = (page: Page, language: 'en' | 'zh') =>
  page.getByRole('button', { name: language === 'en' ? 'Sign in' : '登录', exact: true });

/** The English UI for every page of this browser context (the apps' shared cookie remembers the choice). */
async function preferEnglish(page: Page, origin: string) {
  await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: 'en', url: origin }]);
}

/**
 * The next answer to `pathname` that is not a CSRF refusal (a browser's first POST has no token yet: its
 * 403 brings one and the SDK sends the request again).
 */
const answerTo = (page: Page, pathname: string) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === pathname && r.status() !== 403);

/** The 2046 failure the password sign-in was answered with. */
async function secondVerifyDemanded(response: Response) {
  const json = (await response.json()) as { message: string; data: Record<string, unknown> };
  expect(json.message).toBe('error');
  expect(json.data).toMatchObject({
    error_code: 2046,
    sms_code_key: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/),
    mobile: expect.stringMatching(/^\+86\*+\d{4}$/),
  });
  return json.data as { sms_code_key: string; mobile: string };
}

/** Who the browser's session belongs to, from account info (null when it has none). */
async function sessionUser(page: Page, origin: string): Promise<string | null> {
  const response = await page.request.get(`${origin}${ACCOUNT_INFO}`, { failOnStatusCode: false });
  const json = (await response.json()) as { message: string; data: { user_id?: string } };
  return json.message === 'success' ? String(json.data.user_id) : null;
}

const secondVerifyDialog = (page: Page, language: 'en' | 'zh') =>
  page.getByRole('dialog', { name: language === 'en' ? 'Verify it’s you' : '身份验证' });

test.describe('second verification in the web app (account-react’s dialog)', () => {
  test('a 2046 sign-in completed through the dialog: the SMS code typed there signs in through one continuation, and that browser is not asked again until it is forgotten on the workbench', async ({
    page,
    server,
    outbox,
  }) => {
    // Registration texted the number moments ago, from another browser; the dialog's send is the
    // password holder's, counted apart from that cooldown (the server README, "Security: no lockout an
    // attacker can impose"), so it goes out at once.
    const account = await accountRegisteredElsewhere(page, server, outbox);
    await preferEnglish(page, server.origin);
    const logins = await requestsTo(page, PASSWORD_LOGIN);
    const continuations = await requestsTo(page, CONTINUE);
    const dialog = secondVerifyDialog(page, 'en');

    const demand = await test.step('a password sign-in from this new browser opens the dialog', async () => {
      const answered = answerTo(page, PASSWORD_LOGIN);
      await signInByPassword(page, server.origin, account, 'en');
      const demand = await secondVerifyDemanded(await answered);
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute('aria-modal', 'true');
      await expect(dialog).toHaveAccessibleDescription(
        `You are signing in on a new device. We will text a code to ${demand.mobile}; enter it to finish signing in.`,
      );
      expect(demand.mobile.slice(-4)).toBe(account.mobile.slice(-4));
      return demand;
    });

    const code = await test.step('the person asks for a code at once and reads it', async () => {
      const send = dialog.getByRole('button', { name: 'Send code' });
      await expect(send).toBeFocused();
      const askedAt = Date.now();
      const sentAnswer = answerTo(page, SEND_CODE);
      await send.click();
      expect(await (await sentAnswer).json()).toMatchObject({ message: 'success' });
      await expect(dialog.getByRole('status')).toHaveText('Code sent');
      await expect(dialog.getByRole('alert')).toHaveCount(0);
      return outbox.code(account.mobile, askedAt);
    });

    await test.step('typed and submitted, the original sign-in resolves with the user', async () => {
      const field = dialog.getByRole('textbox', { name: 'Verification code' });
      await expect(field).toBeFocused();
      await field.pressSequentially(code, { delay: 40 });
      await dialog.getByRole('button', { name: 'Verify and sign in' }).click();

      // The password sign-in resolved: the app went on to the workbench, signed in as the account.
      await expect(page).toHaveURL(`${server.origin}/workbench`);
      await expect(dialog).toHaveCount(0);
      await expect(page.getByText(account.userId, { exact: true })).toBeVisible();
      expect(await sessionUser(page, server.origin)).toBe(account.userId);
      // Through the continuation, once, with the key and the code; the password was not sent again.
      expect(continuations).toHaveLength(1);
      const continued = decodeMixedFields(Object.fromEntries(formOf(continuations[0] as Request)));
      expect(continued).toMatchObject({ sms_code_key: demand.sms_code_key, code });
      expect(logins).toHaveLength(1);
    });

    await test.step('signed out and in again from this browser, nobody asks', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page).toHaveURL(/\/login/);
      expect(await sessionUser(page, server.origin)).toBeNull();
      const again = answerTo(page, PASSWORD_LOGIN);
      await signInByPassword(page, server.origin, account, 'en');
      expect(await (await again).json()).toMatchObject({
        message: 'success',
        data: { user_id: account.userId },
      });
      await expect(page).toHaveURL(`${server.origin}/workbench`);
      await expect(dialog).toHaveCount(0);
      expect(logins).toHaveLength(2);
      expect(continuations).toHaveLength(1);
      // The account's trusted devices: the phone it registered on, and this browser.
      const devices = page.getByRole('region', { name: 'Trusted devices' }).getByRole('listitem');
      await expect(devices).toHaveCount(2);
      await expect(devices.filter({ hasText: 'This device' })).toHaveCount(1);
    });

    await test.step('forgotten on the workbench, this browser is asked again at its next sign-in', async () => {
      const devices = page.getByRole('region', { name: 'Trusted devices' }).getByRole('listitem');
      const thisDevice = devices.filter({ hasText: 'This device' });
      await thisDevice.getByRole('button', { name: /^Remove device: / }).click();
      await expect(devices).toHaveCount(1);
      await expect(devices.filter({ hasText: 'This device' })).toHaveCount(0);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page).toHaveURL(/\/login/);
      const asked = answerTo(page, PASSWORD_LOGIN);
      await signInByPassword(page, server.origin, account, 'en');
      await secondVerifyDemanded(await asked);
      await expect(dialog).toBeVisible();
      expect(await sessionUser(page, server.origin)).toBeNull();
    });
  });

  for (const how of ['its close button', 'Escape'] as const) {
    test(`closing it with ${how} rejects with SECOND_VALID: nothing shown, no continuation, no session`, async ({
      page,
      server,
      outbox,
    }) => {
      const account = await accountRegisteredElsewhere(page, server, outbox);
      const continuations = await requestsTo(page, CONTINUE);
      const answered = answerTo(page, PASSWORD_LOGIN);
      await signInByPassword(page, server.origin, account, 'zh');
      await secondVerifyDemanded(await answered);
      const dialog = secondVerifyDialog(page, 'zh');
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAccessibleDescription(/^你正在新设备上登录。/);
      // While the dialog is open the sign-in is still in flight; the page behind is hidden from
      // assistive technology (aria-hidden) until the dialog goes.
      const busy = page.getByRole('button', { name: '请稍候…', includeHidden: true });
      await expect(busy).toBeDisabled();
      await expect(page.getByRole('button', { name: '请稍候…' })).toHaveCount(0);

      if (how === 'Escape') await page.keyboard.press('Escape');
      else await dialog.getByRole('button', { name: '关闭' }).click();

      await expect(dialog).toHaveCount(0);
      // The sign-in settled: the button is back. It rejected with SECOND_VALID, which the app shows as
      // nothing (a plain 2046 would read 当前设备需要二次验证).
      await expect(signInButton(page, 'zh')).toBeEnabled();
      // Focus goes back to the button that started the sign-in (it stayed focusable while busy).
      await expect(signInButton(page, 'zh')).toBeFocused();
      await expect(page.getByRole('alert')).toHaveCount(0);
      await expect(page).toHaveURL(`${server.origin}/login`);
      expect(continuations).toHaveLength(0);
      expect(await sessionUser(page, server.origin)).toBeNull();
    });
  }
});

test.describe('second verification handled by the app (the SDK’s onSecondVerify)', () => {
  test('no dialog appears: the app is told the sms_code_key and the call rejects with SECOND_VALID carrying it', async ({
    page,
    server,
    outbox,
  }) => {
    const account = await accountRegisteredElsewhere(page, server, outbox);
    await openFixture(page, server.origin);
    await page.evaluate(() => window.e2e.setup({ language: 'en' }));
    await handleSecondVerifyInApp(page);
    const continuations = await requestsTo(page, CONTINUE);

    const answered = answerTo(page, PASSWORD_LOGIN);
    await startCall(page, 'login', 'passwordLogin', { mobile: account.mobile, password: PASSWORD });
    const demand = await secondVerifyDemanded(await answered);
    const result = await callResult(page, 'login');
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: 'response',
        error_code: 2046,
        description: 'SECOND_VALID',
        data: { sms_code_key: demand.sms_code_key, mobile: demand.mobile },
      },
    });
    expect(await secondVerifications(page)).toEqual([
      {
        sms_code_key: demand.sms_code_key,
        mobileMasked: demand.mobile,
        error_code: 2046,
        path: PASSWORD_LOGIN,
      },
    ]);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(continuations).toHaveLength(0);
    expect(await call(page, 'accountInfo', {})).toMatchObject({ ok: false });
  });
});
