import { managerAndSignedOutMember, registeredThroughApi } from '../support/account-api';
import { createOrganisation, createRole, inviteMember, memberJoins } from '../support/organisation';
import { PASSWORD } from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';

// The console's role and membership actions (zh) as two people in two browser contexts against the
// real server: a manager invites a member with a role, who accepts; the manager edits the role's
// permissions, sees the member's roles and effective permissions and takes the role back, each
// destructive step confirmed in a dialog; the member then leaves.

test('a manager edits a role and takes it back from a member; the member leaves', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  // The member's account (signed out), and the manager; then the manager's organisation, a role reading
  // members, and the member added with it.
  const { memberContext, memberPage, memberMobile } = await managerAndSignedOutMember(
    page,
    newContext,
    server,
    outbox,
  );
  await createOrganisation(page, server.origin);
  await createRole(page);
  // Adding the member invites their mobile; they join once they accept from the link.
  await inviteMember(page, memberMobile);
  await memberJoins(memberPage, server, outbox, memberMobile);
  const roles = page.getByRole('region', { name: '角色' });
  const members = page.getByRole('region', { name: '成员' });
  await page.reload();
  await expect(members.getByRole('listitem').filter({ hasText: '小王' })).toContainText('小王 · 查看者');

  // The manager lets the role read roles too.
  await roles.getByRole('button', { name: '编辑角色 查看者' }).click();
  const edit = roles.getByRole('form', { name: '编辑角色 查看者' });
  await edit.getByRole('checkbox', { name: 'role:read' }).check();
  await edit.getByRole('button', { name: '保存角色' }).click();
  await expect(roles.getByRole('status')).toHaveText('角色已保存。');
  // Permissions are shown in words.
  await expect(roles.getByRole('listitem').filter({ hasText: '查看者 (viewer)' })).toContainText(
    '查看成员、查看角色',
  );

  // The member's roles and effective permissions; the role taken back once confirmed.
  await members
    .getByRole('group', { name: '小王 的操作' })
    .getByRole('button', { name: '角色与权限' })
    .click();
  const detail = members.getByRole('region', { name: '小王 的角色' });
  await expect(detail).toContainText('生效的权限');
  await expect(detail).toContainText('生效的权限: 查看成员、查看角色');
  await detail.getByRole('button', { name: '收回角色 查看者' }).click();
  const dialog = page.getByRole('alertdialog', { name: '收回 小王 的角色「查看者」？' });
  await expect(dialog.getByRole('button', { name: '取消' })).toBeFocused();
  await dialog.getByRole('button', { name: '收回' }).click();
  await expect(detail).toContainText('没有角色。');
  await expect(detail).toContainText('生效的权限: 无');

  // The member, acting as the organisation identity since accepting, leaves it once confirmed.
  await memberPage.reload();
  const memberIdentity = memberPage.getByRole('region', { name: '当前身份' });
  await expect(memberIdentity).toContainText('你正以 小王（示例公司）的身份操作');
  const leave = memberPage.getByRole('region', { name: '退出组织' });
  await leave.getByRole('button', { name: '退出组织' }).click();
  await memberPage
    .getByRole('alertdialog', { name: '退出「示例公司」？' })
    .getByRole('button', { name: '退出组织' })
    .click();
  await expect(memberPage.getByRole('region', { name: '创建组织' })).toBeVisible();
  await expect(memberIdentity.getByRole('listitem').filter({ hasText: '示例公司' })).toHaveCount(0);

  await page.reload();
  await expect(
    page.getByRole('region', { name: '成员' }).getByRole('listitem').filter({ hasText: '小王' }),
  ).toHaveCount(0);
  await memberContext.close();
});

// The organisation's own details and a pending invitation, edited from the console (zh): the manager
// renames the organisation and writes its description, which the identity picker and a reload show;
// then changes a pending link invitation's member name and role, which its preview shows.
test('a manager renames the organisation, edits its details and updates a pending invitation', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  await registeredThroughApi(page, server, outbox, { mobile: uniqueMobile(), password: PASSWORD });
  await createOrganisation(page, server.origin, { name: '旧名公司' });
  await createRole(page);
  const identity = page.getByRole('region', { name: '当前身份' });

  // Rename and describe.
  const settings = page.getByRole('region', { name: '组织设置' });
  const details = settings.getByRole('form', { name: '组织资料' });
  await details.getByLabel('组织名称').fill('新名公司');
  await details.getByLabel('组织简介').fill('做示例的公司');
  await details.getByRole('button', { name: '保存资料' }).click();
  await expect(details.getByRole('status')).toHaveText('组织资料已保存。');
  await expect(identity).toContainText('你正以 老板（新名公司）的身份操作');
  await page.reload();
  await expect(details.getByLabel('组织名称')).toHaveValue('新名公司');
  await expect(details.getByLabel('组织简介')).toHaveValue('做示例的公司');

  // A link invitation, then its name and role changed while it is pending.
  const invite = page.getByRole('region', { name: '邀请', exact: true });
  await invite.getByLabel('邀请方式').selectOption('link');
  await invite.getByLabel('成员名称').fill('小张');
  await invite.getByRole('button', { name: '发送邀请' }).click();
  const link = await invite.getByLabel('邀请链接（复制后发送给对方）').inputValue();
  const row = invite.getByRole('listitem').filter({ hasText: '小张' });
  await expect(row).toContainText('待接受');
  await row.getByRole('button', { name: '修改对 小张 的邀请' }).click();
  const edit = invite.getByRole('form', { name: '修改对 小张 的邀请' });
  await edit.getByLabel('成员名称').fill('小章');
  await edit.getByLabel('角色').selectOption('viewer');
  await edit.getByRole('button', { name: '保存修改' }).click();
  await expect(invite.getByRole('listitem').filter({ hasText: '小章' })).toContainText('待接受');
  await expect(invite.getByRole('listitem').filter({ hasText: '小张' })).toHaveCount(0);

  // What the invited person will see, in a browser of their own.
  const theirs = await newContext();
  const preview = await theirs.newPage();
  await preview.goto(link);
  const screen = preview.getByRole('region', { name: '加入组织' });
  await expect(screen).toContainText('老板 邀请你加入「新名公司」');
  await expect(screen).toContainText('角色：查看者');
  await theirs.close();
});
