import type { Page } from '@playwright/test';
import { PASSWORD, signInByPassword } from './person';
import type { RunningServer } from './server';
import { expect, type Outbox } from './test';

// A manager's first steps on the organisation console (/org, zh), as the specs of organisations,
// their roles, members and invitations all start: create an organisation, act as its identity, make
// a role, invite a member who accepts.

/** Creates an organisation on /org and switches to the new identity in it. */
export async function createOrganisation(
  page: Page,
  origin: string,
  { name = '示例公司', as = '老板' }: { name?: string; as?: string } = {},
): Promise<void> {
  await page.goto(`${origin}/org`);
  const create = page.getByRole('region', { name: '创建组织' });
  await create.getByLabel('组织名称').fill(name);
  await create.getByLabel('你在组织中的名称').fill(as);
  await create.getByRole('button', { name: '创建组织' }).click();
  await expect(create.getByRole('status')).toHaveText('组织已创建。');
  const identity = page.getByRole('region', { name: '当前身份' });
  await identity.getByRole('button', { name: `使用此身份: ${name} · ${as}` }).click();
  await expect(identity).toContainText(`你正以 ${as}（${name}）的身份操作`);
}

/** Creates a role that may read members (`member:read`), and waits until the list shows it. */
export async function createRole(page: Page, key = 'viewer', name = '查看者'): Promise<void> {
  const roles = page.getByRole('region', { name: '角色' });
  await roles.getByLabel('角色标识').fill(key);
  await roles.getByLabel('角色名称').fill(name);
  await roles.getByRole('checkbox', { name: 'member:read' }).check();
  await roles.getByRole('button', { name: '创建角色' }).click();
  await expect(roles.getByRole('listitem').filter({ hasText: `${name} (${key})` })).toBeVisible();
}

/** Adds a member by mobile with a role: that invites them (nobody joins without accepting). */
export async function inviteMember(
  page: Page,
  mobile: string,
  { name = '小王', role = 'viewer' }: { name?: string; role?: string } = {},
): Promise<void> {
  const members = page.getByRole('region', { name: '成员' });
  await members.getByLabel('成员手机号或邮箱').fill(mobile);
  await members.getByLabel('成员名称').fill(name);
  await members.getByLabel('角色').selectOption(role);
  await members.getByRole('button', { name: '添加成员' }).click();
  await expect(members.getByRole('status')).toHaveText('邀请已发送，对方接受后即加入组织。');
}

/** The invited person, signed in on `page`, follows the outbox's link and accepts. */
export async function acceptInvitation(
  page: Page,
  outbox: Outbox,
  mobile: string,
  organisation = '示例公司',
): Promise<void> {
  await page.goto(await outbox.inviteLink(mobile));
  const joining = page.getByRole('region', { name: '加入组织' });
  await joining.getByRole('button', { name: '接受邀请' }).click();
  await expect(joining.getByRole('status')).toHaveText(`你已加入「${organisation}」。`);
}

/**
 * The invited member, signed out on `page` (as `managerAndSignedOutMember` leaves them), signs in by
 * password, accepts and enters the organisation console as the new identity.
 */
export async function memberJoins(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  mobile: string,
): Promise<void> {
  await signInByPassword(page, server, { account: mobile, password: PASSWORD });
  await acceptInvitation(page, outbox, mobile);
  await page.getByRole('region', { name: '加入组织' }).getByRole('button', { name: '进入组织' }).click();
  await expect(page).toHaveURL(`${server.origin}/org`);
}
