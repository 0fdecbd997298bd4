import { registeredOnWorkbench, registeredThroughApi } from '../support/account-api';
import { openSecurity } from '../support/account-centre';
import { acceptInvitation, createOrganisation, createRole, inviteMember } from '../support/organisation';
import { PASSWORD, passSecondVerify, signOut, submitPasswordSignIn } from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// The audit log as a person sees it (zh): the account centre's "recent security activity" names a
// sign-in from a browser the account did not know as a new device, and one from a known browser as a
// known device.

test('a person sees their own new-device sign-in in the account centre', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const mobile = uniqueMobile();
  // Registered here (through the API): this browser is the account's known device; signing in again
  // here is known.
  await registeredOnWorkbench(page, server, outbox, { mobile, password: PASSWORD });
  await signOut(page, server);
  await submitPasswordSignIn(page, server, { account: mobile, password: PASSWORD });
  await expect(page).toHaveURL(`${server.origin}/workbench`);

  // Another browser: the password, then the second verification by SMS code.
  const elsewhere = await newContext();
  const other = await elsewhere.newPage();
  await submitPasswordSignIn(other, server, { account: mobile, password: PASSWORD });
  await passSecondVerify(other, outbox, mobile);
  await expect(other).toHaveURL(`${server.origin}/workbench`);
  await openSecurity(other, server);

  const activity = other.getByRole('region', { name: '最近的安全活动' });
  const rows = activity.getByRole('table', { name: '最近的安全活动' }).getByRole('row');
  // The header, then newest first: this sign-in, the known browser's, its sign-out, the registration.
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(1)).toContainText('登录（短信验证码）');
  await expect(rows.nth(1)).toContainText('新设备');
  await expect(rows.nth(2)).toContainText('登录（密码）');
  await expect(rows.nth(2)).toContainText('已知设备');
  await expect(rows.nth(3)).toContainText('退出登录');
  await expect(rows.nth(4)).toContainText('新设备');
  await expect(rows.nth(1).locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  expect(await seriousViolations(other), 'axe on /account/security').toEqual([]);
  await elsewhere.close();
});

// The organisation's audit log as its manager sees it (zh): who gave a role to whom, a role banned and
// a member removed — named in every entry as they were, though no longer a member.
test('a manager sees role changes and a removal in the organisation’s audit log with actor, target and time', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const memberContext = await newContext();
  const memberPage = await memberContext.newPage();
  const memberMobile = uniqueMobile();
  await registeredThroughApi(memberPage, server, outbox, { mobile: memberMobile, password: PASSWORD });

  await registeredThroughApi(page, server, outbox, { mobile: uniqueMobile(), password: PASSWORD });
  await createOrganisation(page, server.origin);

  // Two roles; the member joins with one and is given the other.
  await createRole(page, 'viewer', '查看者');
  await createRole(page, 'editor', '编辑者');
  // Adding the member invites their mobile (still signed in in their own browser); they accept.
  await inviteMember(page, memberMobile);
  await acceptInvitation(memberPage, outbox, memberMobile);
  const roles = page.getByRole('region', { name: '角色' });
  const members = page.getByRole('region', { name: '成员' });
  await memberContext.close();
  await page.reload();
  await expect(members.getByRole('listitem').filter({ hasText: '小王' })).toContainText('小王 · 查看者');
  const editor = roles.getByRole('group', { name: '编辑者 的操作' });
  await editor.getByLabel('分配给成员: 编辑者').selectOption({ label: '小王' });
  await editor.getByRole('button', { name: '分配给成员' }).click();
  // Banning asks first.
  await roles.getByRole('group', { name: '查看者 的操作' }).getByRole('button', { name: '禁用' }).click();
  await page
    .getByRole('alertdialog', { name: '禁用角色「查看者」？' })
    .getByRole('button', { name: '禁用' })
    .click();
  await expect(roles.getByRole('listitem').filter({ hasText: '查看者 (viewer)' })).toContainText('已禁用');
  // Removing the member asks first.
  await members
    .getByRole('group', { name: '小王 的操作' })
    .getByRole('button', { name: '移除成员 小王' })
    .click();
  await page
    .getByRole('alertdialog', { name: '移除成员 小王？' })
    .getByRole('button', { name: '移除' })
    .click();
  await expect(members.getByRole('listitem').filter({ hasText: '小王' })).toHaveCount(0);

  // The log, newest first: who (the manager's name), what, to whom (the member's name), when. The
  // dispatcher copies each change into the log just after its commit, so the page is read again until
  // the last change (the removal) is there. Each look allows a reload on a loaded machine (one with a
  // load average of 50 took over 2 s to draw the page), and all of them stay under the test's limit.
  const log = page.getByRole('region', { name: '审计日志' });
  const rows = log.getByRole('table', { name: '审计日志' }).getByRole('row');
  const removed = rows.filter({ hasText: '移除了成员 小王' });
  await expect(async () => {
    await page.reload();
    await expect(removed).toHaveCount(1, { timeout: 15_000 });
  }).toPass({ timeout: 240_000 });
  await expect(removed).toContainText('老板');
  await expect(removed.getByRole('cell').last()).toHaveText('小王');
  await expect(removed.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  const banned = rows.filter({ hasText: '禁用了角色 viewer' });
  await expect(banned).toContainText('老板');
  const granted = rows.filter({ hasText: '授予角色 editor' });
  await expect(granted).toContainText('老板');
  // No longer a member, still named.
  await expect(granted.getByRole('cell').last()).toHaveText('小王');
  await expect(granted.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  // Filtered to one type, only that row.
  await log.getByLabel('事件类型（可填前缀，如 organisation.）').fill('organisation.role.granted');
  await log.getByRole('button', { name: '筛选' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('授予角色 editor');
  await expect(log.getByRole('link', { name: '导出 CSV' })).toHaveAttribute('href', /format=csv/);
  expect(await seriousViolations(page), 'axe on /org with the audit log').toEqual([]);
});
