import { managerAndSignedOutMember } from '../support/account-api';
import { createOrganisation, createRole, inviteMember, memberJoins } from '../support/organisation';
import { expect, test } from '../support/test';
import { seriousViolations, VIEWPORTS } from '../support/web-pages';

// Issue 12: the organisation console at /org (zh, the app's default), as two people in two browser
// contexts against the real server: a manager creates an organisation and a role and adds an existing
// (signed-out) account with it, which invites its mobile; that member signs in, accepts, acts as the
// organisation identity and sees only what the role allows; the manager freezes the member, whose next
// request is refused.

test('a manager builds an organisation; a member acts in it within its role until frozen', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  // The member's account exists first (an existing account is what "add a member" takes); then the
  // manager: register, create the organisation, act as its identity.
  const { memberContext, memberPage, memberMobile } = await managerAndSignedOutMember(
    page,
    newContext,
    server,
    outbox,
  );
  await page.goto(`${server.origin}/org`);
  await expect(page.getByRole('heading', { level: 1, name: '组织' })).toBeVisible();
  await createOrganisation(page, server.origin);

  // A role that may read members, and the member added with it.
  await createRole(page);
  const roles = page.getByRole('region', { name: '角色' });
  await expect(roles.getByRole('listitem').filter({ hasText: '查看者 (viewer)' })).toContainText('查看成员');
  // Adding a member invites their mobile: nobody joins an organisation without accepting.
  await inviteMember(page, memberMobile);
  const members = page.getByRole('region', { name: '成员' });
  await expect(members.getByRole('listitem').filter({ hasText: '小王' })).toHaveCount(0);

  // The member signs in, accepts from the link sent to their mobile, and acts as the new identity,
  // seeing what member:read allows, nothing more.
  await memberJoins(memberPage, server, outbox, memberMobile);
  const memberIdentity = memberPage.getByRole('region', { name: '当前身份' });
  await expect(memberIdentity).toContainText('你正以 小王（示例公司）的身份操作');
  await page.reload();
  await expect(members.getByRole('listitem').filter({ hasText: '小王' })).toContainText('小王 · 查看者');
  const memberMembers = memberPage.getByRole('region', { name: '成员' });
  await expect(memberMembers.getByRole('listitem')).toHaveCount(2);
  await expect(memberMembers.getByRole('button', { name: '冻结' })).toHaveCount(0);
  await expect(memberMembers.getByRole('button', { name: '添加成员' })).toHaveCount(0);
  await expect(memberPage.getByRole('region', { name: '角色' })).toHaveCount(0);
  await expect(memberPage.getByRole('region', { name: '组织设置' })).toHaveCount(0);
  const explain = memberPage.getByRole('region', { name: '权限说明' });
  await expect(explain).toContainText('我的权限: 查看成员');
  await explain.getByLabel('权限', { exact: true }).selectOption('member:read');
  await explain.getByRole('button', { name: '查看' }).click();
  await expect(explain.getByRole('status')).toContainText('小王 拥有 查看成员');
  await expect(explain.getByRole('status')).toContainText('由角色 查看者 授予（查看成员）');
  // The manager's console (every section) and the member's, at the spec's smallest and a large breakpoint.
  for (const viewport of [VIEWPORTS.xs, VIEWPORTS.lg]) {
    for (const p of [page, memberPage]) {
      await p.setViewportSize(viewport);
      expect(await seriousViolations(p), `axe on /org at ${viewport.width}px`).toEqual([]);
    }
  }

  // The manager freezes the member; the member's next request is refused with the clear error.
  await members
    .getByRole('group', { name: '小王 的操作' })
    .getByRole('button', { name: '冻结成员 小王' })
    .click();
  // Freezing ends the member's sign-ins at once: asked first.
  await page
    .getByRole('alertdialog', { name: '冻结成员 小王？' })
    .getByRole('button', { name: '冻结' })
    .click();
  await expect(members.getByRole('listitem').filter({ hasText: '小王' })).toContainText('已冻结');
  await explain.getByRole('button', { name: '查看' }).click();
  await expect(explain.getByRole('alert')).toHaveText('该成员身份已被冻结');
  await memberContext.close();
});
