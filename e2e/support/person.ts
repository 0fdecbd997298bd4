import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Locator, Page } from '@playwright/test';
import type { RunningServer } from './server';
import { expect, type Outbox } from './test';

// A person using the web app (apps/web) in its default language, zh: they open pages by their address,
// pick tabs, type into fields found by their labels, press buttons by their names and read their codes
// from the dev outbox (their phone or mailbox). Every step waits on what the page shows, never on time.

/** A password the passport accepts for any test account: long, uncommon, free of the product name. */
export const PASSWORD = 'Lantern-Maple-42';
/** Another one, for a reset. */
export const NEW_PASSWORD = 'Harbor-Quartz-58';

/** The mobile as the passport masks it for the client: '+8613912345678' → '+86*******5678'. */
export function masked(mobile: string): string {
  return `${mobile.slice(0, 3)}${'*'.repeat(mobile.length - 7)}${mobile.slice(-4)}`;
}

/** The digits a person types after the default country code (+86, first in the country select). */
export function nationalNumber(mobile: string): string {
  if (!mobile.startsWith('+86')) throw new Error(`${mobile} is not a +86 number; pick its country first`);
  return mobile.slice(3);
}

/** A 6-digit code that is not `code`. */
export function wrongCodeFor(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

/** The visible tab panel of a page's method tabs (login, sign-up, reset). */
export function panel(page: Page): Locator {
  return page.getByRole('tabpanel');
}

/**
 * The passport sends one code per target a minute, whatever its purpose (apps/passport-server README,
 * "Send limits"), so a person who has just registered waits a minute before a sign-in, reset or
 * second-verification code can reach the same number or address. Rather than wait, a test lets that
 * minute pass for that one entry: it expires the target's cooldown in the server's store (the
 * `store_entries` table of the store's SQLite file, `store.db` in the test server's DATA_DIR). Nothing else changes:
 * the hourly caps, the risk counters and the codes already sent stay as they are.
 */
export function letResendCooldownPass(server: RunningServer, target: string): void {
  const channel = target.includes('@') ? 'email' : 'mobile';
  const key = `send:cooldown:${channel}:${channel === 'email' ? target.toLowerCase() : target}`;
  const db = new DatabaseSync(join(server.dataDir, 'store.db'));
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const expired = db
      .prepare('UPDATE store_entries SET expires_at = ? WHERE key = ? AND expires_at > ?')
      .run(Date.now() - 1, key, Date.now());
    if (expired.changes !== 1)
      throw new Error(`no running resend cooldown for ${target} in the server's store`);
  } finally {
    db.close();
  }
}

/** Opens `path` by its address unless the browser is there already. */
async function open(page: Page, server: RunningServer, path: string): Promise<void> {
  if (page.url().startsWith(server.origin) && new URL(page.url()).pathname === path) return;
  await page.goto(`${server.origin}${path}`);
}

/**
 * Presses the code field's "获取验证码" in `scope` and reads the code that arrives for `to`. Messages
 * sent to `to` before the press (an earlier purpose) are skipped.
 */
export async function sendCodeAndRead(scope: Locator, outbox: Outbox, to: string): Promise<string> {
  const after = Date.now();
  await scope.getByRole('button', { name: /^(获取验证码|重新发送)$/ }).click();
  // The button counts down once the passport accepted the send.
  await expect(scope.getByRole('button', { name: /秒后可重发$/ })).toBeDisabled();
  return outbox.code(to, after);
}

/** Types a mobile number into the mobile field of `scope` (the national digits, as a person would). */
export async function typeMobile(scope: Locator, mobile: string): Promise<void> {
  await scope.getByRole('textbox', { name: '手机号', exact: true }).fill(nationalNumber(mobile));
}

/** Types a code into the code field of `scope`, replacing what is there. */
export async function typeCode(scope: Locator, code: string): Promise<void> {
  const field = scope.getByRole('textbox', { name: '验证码', exact: true });
  await field.clear();
  await field.pressSequentially(code);
}

/** Waits for the workbench of a signed-in account: the page, its title and the account's mobile or e-mail. */
export async function expectWorkbench(
  page: Page,
  server: RunningServer,
  account: { mobile?: string; email?: string } = {},
): Promise<void> {
  await expect(page).toHaveURL(`${server.origin}/workbench`);
  await expect(page.getByRole('heading', { level: 1, name: '工作台' })).toBeVisible();
  const profile = page.getByRole('region', { name: '我的账号' });
  const row = (label: string) =>
    profile.locator('dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });
  if (account.mobile) await expect(row('手机号').locator('dd')).toHaveText(masked(account.mobile));
  if (account.email) {
    const [name, domain] = account.email.split('@') as [string, string];
    await expect(row('邮箱').locator('dd')).toHaveText(`${name[0]}***@${domain}`);
  }
}

/** The sign-up form, filled and submitted: the target, its code from the outbox, the password twice, consent. */
async function register(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  channel: 'mobile' | 'email',
  target: string,
  password: string,
): Promise<void> {
  await open(page, server, '/sign-up');
  await expect(page.getByRole('heading', { level: 1, name: '注册 Portico 账号' })).toBeVisible();
  await page.getByRole('tab', { name: channel === 'mobile' ? '手机号注册' : '邮箱注册' }).click();
  const form = panel(page);
  if (channel === 'mobile') await typeMobile(form, target);
  else await form.getByRole('textbox', { name: '邮箱', exact: true }).fill(target);
  const code = await sendCodeAndRead(form, outbox, target);
  await typeCode(form, code);
  await form.getByLabel('设置密码', { exact: true }).fill(password);
  await form.getByLabel('再次输入新密码', { exact: true }).fill(password);
  await form.getByRole('checkbox', { name: /^我已阅读并同意/ }).check();
  await form.getByRole('button', { name: '注册并登录' }).click();
}

/**
 * Registers a new account by mobile code on /sign-up, with a password, and ends signed in on
 * /workbench (which shows the masked number). Registration remembers this browser context as a
 * trusted device, so later password sign-ins from the same context need no second verification.
 */
export async function registerByMobile(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  { mobile, password }: { mobile: string; password: string },
): Promise<void> {
  await register(page, server, outbox, 'mobile', mobile, password);
  await expectWorkbench(page, server, { mobile });
}

/** Registers a new account by e-mail code on /sign-up (the "邮箱注册" tab) and ends on /workbench. */
export async function registerByEmail(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  { email, password }: { email: string; password: string },
): Promise<void> {
  await register(page, server, outbox, 'email', email, password);
  await expectWorkbench(page, server, { email });
}

/** Signs out on the workbench ("退出登录") and waits for the login page. */
export async function signOut(page: Page, server: RunningServer): Promise<void> {
  await page.getByRole('button', { name: '退出登录' }).click();
  await expect(page).toHaveURL(`${server.origin}/login`);
  await expect(page.getByRole('heading', { level: 1, name: '登录 Portico' })).toBeVisible();
}

/** Opens /login (unless there) and picks a method tab: '短信验证码', '邮箱验证码' or '密码'. */
export async function openLoginTab(
  page: Page,
  server: RunningServer,
  tab: '短信验证码' | '邮箱验证码' | '密码',
): Promise<Locator> {
  await open(page, server, '/login');
  const button = page.getByRole('tab', { name: tab, exact: true });
  await button.click();
  await expect(button).toHaveAttribute('aria-selected', 'true');
  return panel(page);
}

/**
 * Fills the password tab with an account (the national mobile digits, an e-mail or a username) and a
 * password, and presses "登录". The caller expects what follows (the workbench, an error, a dialog).
 */
export async function submitPasswordSignIn(
  page: Page,
  server: RunningServer,
  { account, password }: { account: string; password: string },
): Promise<Locator> {
  const form = await openLoginTab(page, server, '密码');
  const typed = account.startsWith('+86') ? nationalNumber(account) : account;
  await form.getByRole('textbox', { name: '手机号、邮箱或用户名' }).fill(typed);
  await form.getByLabel('密码', { exact: true }).fill(password);
  await form.getByRole('button', { name: '登录', exact: true }).click();
  return form;
}

/** Signs in with mobile (or e-mail) and password and ends on the workbench. */
export async function signInByPassword(
  page: Page,
  server: RunningServer,
  { account, password }: { account: string; password: string },
): Promise<void> {
  await submitPasswordSignIn(page, server, { account, password });
  await expectWorkbench(page, server, account.includes('@') ? { email: account } : { mobile: account });
}

/** The SMS tab with the number typed and a code sent; returns the form and the code from the outbox. */
export async function startSmsSignIn(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  mobile: string,
): Promise<{ form: Locator; code: string }> {
  const form = await openLoginTab(page, server, '短信验证码');
  await typeMobile(form, mobile);
  const code = await sendCodeAndRead(form, outbox, mobile);
  return { form, code };
}

/** Signs in by SMS code and ends on the workbench. */
export async function signInBySms(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  { mobile }: { mobile: string },
): Promise<void> {
  const { form, code } = await startSmsSignIn(page, server, outbox, mobile);
  await typeCode(form, code);
  await form.getByRole('button', { name: '登录', exact: true }).click();
  await expectWorkbench(page, server, { mobile });
}

/** Signs in by e-mail code and ends on the workbench. */
export async function signInByEmailCode(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  { email }: { email: string },
): Promise<void> {
  const form = await openLoginTab(page, server, '邮箱验证码');
  await form.getByRole('textbox', { name: '邮箱', exact: true }).fill(email);
  const code = await sendCodeAndRead(form, outbox, email);
  await typeCode(form, code);
  await form.getByRole('button', { name: '登录', exact: true }).click();
  await expectWorkbench(page, server, { email });
}

/** The second-verification dialog of account-react ("身份验证", naming the masked mobile). */
export function secondVerifyDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: '身份验证' });
}

/**
 * Completes the second-verification dialog: sends the SMS code to the account's mobile, reads it
 * from the outbox, types it and presses "验证并登录".
 */
export async function passSecondVerify(page: Page, outbox: Outbox, mobile: string): Promise<void> {
  const dialog = secondVerifyDialog(page);
  await expect(dialog).toBeVisible();
  const code = await sendCodeAndRead(dialog, outbox, mobile);
  await typeCode(dialog, code);
  await dialog.getByRole('button', { name: '验证并登录' }).click();
  await expect(dialog).toHaveCount(0);
}

/**
 * Resets the password on /reset-password by SMS code ("通过手机号") and follows "用新密码登录" back
 * to /login.
 */
export async function resetPasswordByMobile(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  { mobile, password }: { mobile: string; password: string },
): Promise<void> {
  await open(page, server, '/reset-password');
  await expect(page.getByRole('heading', { level: 1, name: '重置密码' })).toBeVisible();
  await page.getByRole('tab', { name: '通过手机号' }).click();
  const form = panel(page);
  await typeMobile(form, mobile);
  const code = await sendCodeAndRead(form, outbox, mobile);
  await typeCode(form, code);
  await form.getByLabel('新密码', { exact: true }).fill(password);
  await form.getByLabel('再次输入新密码', { exact: true }).fill(password);
  await form.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByRole('heading', { name: '密码已重置' })).toBeFocused();
  await page.getByRole('link', { name: '用新密码登录' }).click();
  await expect(page).toHaveURL(`${server.origin}/login`);
}
