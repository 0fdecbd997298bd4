import type { Download, Locator, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { registeredOnWorkbench } from '../support/account-api';
import { openSecurity } from '../support/account-centre';
import { advanceServerClock } from '../support/clock';
import { expectWorkbench, PASSWORD, secondVerifyDialog, submitPasswordSignIn } from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Authenticator apps and recovery codes (docs/factors.md) in Chromium, as a person (zh), against the
// server started as the README starts it, with TEST_CLOCK=on: the codes are computed with `otpauth` from
// the key the page shows, at the server's own time (POST /dev/clock answers it), right before each is
// typed, at the start of a fresh step.

test.use({ serverOptions: { env: { TEST_CLOCK: 'on' } } });

/** The server's clock (ms), as TEST_CLOCK keeps it. */
async function serverNow(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const token = /(?:^|; )passport_csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const response = await fetch('/dev/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tt-passport-csrf-token': token },
      body: 'advance_ms=0',
    });
    return ((await response.json()) as { data: { now: number } }).data.now;
  });
}

/**
 * The code an authenticator app shows for `secret`, computed right before it is typed: the server's
 * test clock is first moved to one second into its next 30-second step, so the code is of a step no
 * earlier code spent (each step works once) and stays good for that step and the next (±1 step) —
 * nearly a minute, however loaded the machine is between computing and submitting it.
 */
async function freshCode(page: Page, secret: string): Promise<string> {
  const now = await serverNow(page);
  await advanceServerClock(page, STEP - (now % STEP) + 1_000);
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: await serverNow(page) });
}
const STEP = 30_000;

/** Picks a way in the second-verification dialog's "验证方式" group. */
async function chooseWay(dialog: Locator, way: '身份验证器应用' | '恢复码') {
  const group = dialog.getByRole('group', { name: '验证方式' });
  await group.getByRole('radio', { name: way }).check();
}

test('an authenticator app and recovery codes: set up on the security page, then new devices sign in with them', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const mobile = uniqueMobile();
  await registeredOnWorkbench(page, server, outbox, { mobile, password: PASSWORD });
  await openSecurity(page, server);
  expect(await seriousViolations(page), 'axe on /account/security').toEqual([]);

  // Set up: the QR code and the key, shown once; the app's first code turns it on.
  const app = page.getByRole('region', { name: '身份验证器应用' });
  await expect(app).toContainText('未设置。');
  await app.getByRole('button', { name: '设置身份验证器' }).click();
  await expect(app.getByRole('img', { name: '身份验证器设置二维码' })).toBeVisible();
  const secret = (await app.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await seriousViolations(page), 'axe on the set-up step').toEqual([]);
  await app.getByRole('textbox', { name: '应用中显示的 6 位验证码' }).fill(await freshCode(page, secret));
  await app.getByRole('button', { name: '确认并开启' }).click();
  await expect(app.getByRole('status')).toHaveText('身份验证器已开启。');
  await expect(app).toContainText('已开启');
  await expect(app.getByTestId('totp-secret')).toHaveCount(0);

  // Recovery codes: ten, shown once, downloadable as a text file.
  const recovery = page.getByRole('region', { name: '恢复码' });
  await recovery.getByRole('button', { name: '生成恢复码' }).click();
  const list = recovery.getByRole('list', { name: '新的恢复码' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  const [download] = await Promise.all([
    page.waitForEvent('download') as Promise<Download>,
    recovery.getByRole('link', { name: '下载为文本文件' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('portico-recovery-codes.txt');
  const file = await download.createReadStream();
  let text = '';
  for await (const chunk of file) text += String(chunk);
  for (const code of codes) expect(text).toContain(code);
  expect(await seriousViolations(page), 'axe with the codes shown').toEqual([]);
  await recovery.getByRole('button', { name: '我已保存' }).click();
  await expect(recovery).toContainText('共 10 个，还剩 10 个可用。');

  // Eleven minutes later the session's verification is stale: a new set needs a step-up, which the
  // app's code answers in the step-up dialog's picker.
  await advanceServerClock(page, 11 * 60_000);
  await recovery.getByRole('button', { name: '重新生成恢复码' }).click();
  const confirm = page.getByRole('alertdialog', { name: '重新生成恢复码？' });
  await confirm.getByRole('button', { name: '重新生成恢复码' }).click();
  const stepUp = page.getByRole('dialog', { name: '确认是你本人' });
  await expect(stepUp).toBeVisible();
  await stepUp
    .getByRole('group', { name: '验证方式' })
    .getByRole('radio', { name: '身份验证器应用' })
    .check();
  expect(await seriousViolations(page), 'axe on the step-up with its factor picker').toEqual([]);
  await stepUp.getByRole('textbox', { name: '6 位验证码' }).fill(await freshCode(page, secret));
  await stepUp.getByRole('button', { name: '验证并继续' }).click();
  await expect(stepUp).toHaveCount(0);
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const fresh = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
  await recovery.getByRole('button', { name: '我已保存' }).click();

  // A new device: the password, then the second verification answered by the app's code.
  const textsBefore = (await outbox.codeMessages(mobile)).length;
  const laptop = await (await newContext()).newPage();
  await submitPasswordSignIn(laptop, server, { account: mobile, password: PASSWORD });
  const dialog = secondVerifyDialog(laptop);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('group', { name: '验证方式' }).getByRole('radio')).toHaveCount(3);
  await chooseWay(dialog, '身份验证器应用');
  expect(await seriousViolations(laptop), 'axe on the dialog with its factor picker').toEqual([]);
  await dialog.getByRole('textbox', { name: '6 位验证码' }).fill(await freshCode(laptop, secret));
  await dialog.getByRole('button', { name: '验证并登录' }).click();
  await expect(dialog).toHaveCount(0);
  await expectWorkbench(laptop, server, { mobile });
  // No code went out by text for it (a notice of a new way in may).
  expect(await outbox.codeMessages(mobile)).toHaveLength(textsBefore);

  // The phone is lost: another new device answers with a recovery code.
  const borrowed = await (await newContext()).newPage();
  await submitPasswordSignIn(borrowed, server, { account: mobile, password: PASSWORD });
  const again = secondVerifyDialog(borrowed);
  await chooseWay(again, '恢复码');
  await again.getByRole('textbox', { name: '输入恢复码' }).fill(fresh[0] ?? '');
  await again.getByRole('button', { name: '验证并登录' }).click();
  await expect(again).toHaveCount(0);
  await expectWorkbench(borrowed, server, { mobile });
  await openSecurity(borrowed, server);
  await expect(borrowed.getByRole('region', { name: '恢复码' })).toContainText('还剩 9 个可用');
});
