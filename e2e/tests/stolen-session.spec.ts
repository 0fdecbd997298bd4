import { signedInBySmsOnWorkbench } from '../support/account-api';
import { openSecurity } from '../support/account-centre';
import { letResendCooldownPass, sendCodeAndRead, signInBySms, typeCode } from '../support/person';
import { expect, test, uniqueEmail, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// After a stolen session (zh): a thief who holds the owner's session cookie in another browser binds an
// e-mail of his own; the owner, on a new device, signs in with their own mobile, sees the change in the
// account centre, says "this wasn't me", and every session ends, the thief's too (docs/security.md,
// "Recent changes to sign-in methods").

test('the owner on a new device sees the thief’s change, disowns it, and the thief’s session is gone', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const mobile = uniqueMobile();
  const thiefEmail = uniqueEmail('thief');
  // The owner, signed in on their phone's browser.
  await signedInBySmsOnWorkbench(page, server, outbox, { mobile });

  // The thief: the owner's cookies copied into a browser of his own.
  const thiefContext = await newContext();
  await thiefContext.addCookies(await page.context().cookies());
  const thief = await thiefContext.newPage();
  await thief.goto(`${server.origin}/account/security`);
  const emailSection = thief.getByRole('region', { name: '邮箱', exact: true });
  await emailSection.getByRole('button', { name: '绑定邮箱' }).click();
  await emailSection.getByRole('textbox', { name: '邮箱', exact: true }).fill(thiefEmail);
  const bindCode = await sendCodeAndRead(emailSection, outbox, thiefEmail);
  await typeCode(emailSection, bindCode);
  await emailSection.getByRole('button', { name: '绑定', exact: true }).click();
  await expect(emailSection.getByText('邮箱已绑定。')).toBeVisible();

  // The owner, on a new laptop, signs in with their own mobile.
  const laptopContext = await newContext();
  const laptop = await laptopContext.newPage();
  letResendCooldownPass(server, mobile);
  await signInBySms(laptop, server, outbox, { mobile });
  await openSecurity(laptop, server);

  // The notice, and the change with where it came from.
  const changes = laptop.getByRole('region', { name: '登录方式的近期变更' });
  await expect(changes.getByRole('status')).toContainText('你的账号最近有 1 项登录方式变更');
  const row = changes.getByRole('row', { name: /绑定了邮箱/ });
  await expect(row).toContainText(`${thiefEmail[0]}***@${thiefEmail.split('@')[1]}`);
  expect(await seriousViolations(laptop), 'axe on /account/security with a change').toEqual([]);

  // "This wasn't me", confirmed.
  await row.getByRole('button', { name: '不是我：绑定了邮箱' }).click();
  const dialog = laptop.getByRole('alertdialog', { name: '这项变更不是你本人操作？' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '退出所有登录' }).click();
  const next = changes.getByRole('alert');
  await expect(next.getByRole('heading', { name: '已在所有设备上退出登录' })).toBeFocused();
  await expect(next.getByRole('link', { name: '重置密码' })).toHaveAttribute('href', '/reset-password');

  // The thief's session is gone: his next page is the sign-in page. So is the owner's old one.
  await thief.goto(`${server.origin}/account/security`);
  await expect(thief).toHaveURL(/\/login/);
  await page.goto(`${server.origin}/account/security`);
  await expect(page).toHaveURL(/\/login/);

  // The owner goes on to reset the password.
  await next.getByRole('link', { name: '重置密码' }).click();
  await expect(laptop).toHaveURL(`${server.origin}/reset-password`);
  await thiefContext.close();
  await laptopContext.close();
});
