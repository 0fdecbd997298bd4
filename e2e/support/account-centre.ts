import type { Page } from '@playwright/test';
import { sendCodeAndRead, typeCode } from './person';
import type { RunningServer } from './server';
import { expect, type Outbox } from './test';

// The account centre's security page (/account/security) as a person uses it (zh).

/** From the workbench to /account/security by its link. */
export async function openSecurity(page: Page, server: RunningServer): Promise<void> {
  await page.getByRole('link', { name: '管理手机号、邮箱和用户名' }).click();
  await expect(page).toHaveURL(`${server.origin}/account/security`);
  await expect(page.getByRole('heading', { level: 1, name: '账号与安全' })).toBeVisible();
}

/**
 * On /account/security of an account with neither: adds an e-mail with a code from the mailbox, then a
 * username with a first password. Ends there with both shown.
 */
export async function addEmailAndUsername(
  page: Page,
  outbox: Outbox,
  { email, username, password }: { email: string; username: string; password: string },
): Promise<void> {
  // The e-mail: none yet; add it with a code from the mailbox.
  const emailSection = page.getByRole('region', { name: '邮箱', exact: true });
  await expect(emailSection.getByText('未设置')).toBeVisible();
  await emailSection.getByRole('button', { name: '绑定邮箱' }).click();
  await emailSection.getByRole('textbox', { name: '邮箱', exact: true }).fill(email);
  const code = await sendCodeAndRead(emailSection, outbox, email);
  await typeCode(emailSection, code);
  await emailSection.getByRole('button', { name: '绑定', exact: true }).click();
  await expect(emailSection.getByText('邮箱已绑定。')).toBeVisible();
  await expect(emailSection.getByText(`当前：${email[0]}***@${email.split('@')[1]}`)).toBeVisible();
  await expect(emailSection.getByRole('button', { name: '更换邮箱' })).toBeVisible();

  // A username and a first password together.
  const userSection = page.getByRole('region', { name: '用户名与密码', exact: true });
  await userSection.getByRole('textbox', { name: '用户名', exact: true }).fill(username);
  await userSection.getByLabel('密码', { exact: true }).fill(password);
  await userSection.getByLabel('再次输入新密码', { exact: true }).fill(password);
  await userSection.getByRole('button', { name: '设置用户名和密码' }).click();
  await expect(userSection.getByText('用户名已设置。')).toBeVisible();
  await expect(userSection.getByText(`用户名：${username.toLowerCase()}`)).toBeVisible();
}
