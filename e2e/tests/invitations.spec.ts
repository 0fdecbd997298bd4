import type { Page } from '@playwright/test';
import { registeredThroughApi } from '../support/account-api';
import { actFrom } from '../support/client-address';
import { letResendCooldownPass, PASSWORD } from '../support/person';
import type { RunningServer } from '../support/server';
import { expect, type NewContext, type ServerPool, test, uniqueEmail, uniqueMobile } from '../support/test';
import { seriousViolations, VIEWPORTS } from '../support/web-pages';

// Issue 13: invitations and the manager transfer in the /org console (zh), as three people in three
// browser contexts against the real server: the manager invites by e-mail; a person without an account
// opens the link from the outbox, previews, registers and lands in the organisation with the role; a
// second invitation by mobile is accepted by an existing account; the manager hands management to that
// member, both verifying by code; both consoles then show the new manager.

/** Lets a running resend cooldown for `target` pass (none running is fine). */
function cooldownPassed(server: Parameters<typeof letResendCooldownPass>[0], target: string) {
  try {
    letResendCooldownPass(server, target);
  } catch {
    // No cooldown was running.
  }
}

/**
 * A browser of another person, acting from an address of their own: the send rule counts code sends
 * and invitations together per client address, and three people's sends from one address would have
 * the manager's next send challenged.
 */
async function anotherPerson(
  newContext: NewContext,
  servers: ServerPool,
  server: RunningServer,
): Promise<Page> {
  const context = await newContext();
  await actFrom(context, server, servers.nextClientAddress(server));
  return context.newPage();
}

async function actAs(page: Page, org: string, name: string) {
  const identity = page.getByRole('region', { name: '当前身份' });
  await identity.getByRole('button', { name: `使用此身份: ${org} · ${name}` }).click();
  await expect(identity).toContainText(`你正以 ${name}（${org}）的身份操作`);
}

test('invite by e-mail and mobile, join through sign-up and sign-in, then transfer management', async ({
  page,
  newContext,
  servers,
  server,
  outbox,
}) => {
  // The manager: register, create the organisation and a role, act as the organisation identity.
  const bossMobile = uniqueMobile();
  await registeredThroughApi(page, server, outbox, { mobile: bossMobile, password: PASSWORD });
  await page.goto(`${server.origin}/org`);
  const create = page.getByRole('region', { name: '创建组织' });
  await create.getByLabel('组织名称').fill('示例公司');
  await create.getByLabel('你在组织中的名称').fill('老板');
  await create.getByRole('button', { name: '创建组织' }).click();
  await expect(create.getByRole('status')).toHaveText('组织已创建。');
  await actAs(page, '示例公司', '老板');
  const roles = page.getByRole('region', { name: '角色' });
  await roles.getByLabel('角色标识').fill('viewer');
  await roles.getByLabel('角色名称').fill('查看者');
  await roles.getByRole('checkbox', { name: 'member:read' }).check();
  await roles.getByRole('button', { name: '创建角色' }).click();
  await expect(roles.getByRole('listitem').filter({ hasText: '查看者 (viewer)' })).toBeVisible();

  // Invite by e-mail with the role.
  const invite = page.getByRole('region', { name: '邀请', exact: true });
  const email = uniqueEmail('invitee');
  await invite.getByLabel('邀请方式').selectOption('email');
  await invite.getByLabel('邀请对象（手机号、邮箱或聊天账号）').fill(email);
  await invite.getByLabel('成员名称').fill('小李');
  await invite.getByLabel('角色').selectOption('viewer');
  await invite.getByRole('button', { name: '发送邀请' }).click();
  await expect(invite.getByRole('status').first()).toHaveText('邀请已发送。');
  await expect(invite.getByRole('listitem').filter({ hasText: '小李' })).toContainText('待接受');

  // A person with no account opens the link from the mail, previews, registers and joins.
  const newcomer = await anotherPerson(newContext, servers, server);
  await newcomer.goto(await outbox.inviteLink(email));
  const screen = newcomer.getByRole('region', { name: '加入组织' });
  await expect(screen).toContainText('老板 邀请你加入「示例公司」');
  await expect(screen).toContainText('角色：查看者');
  for (const viewport of [VIEWPORTS.xs, VIEWPORTS.lg]) {
    await newcomer.setViewportSize(viewport);
    expect(await seriousViolations(newcomer), `axe on /invite at ${viewport.width}px`).toEqual([]);
  }
  const after = Date.now();
  await screen.getByRole('button', { name: /^发送验证码到 / }).click();
  await expect(screen.getByRole('status')).toHaveText('验证码已发送。');
  await screen.getByLabel('验证码').fill(await outbox.code(email, after));
  await screen.getByLabel('设置密码').fill(PASSWORD);
  await screen.getByRole('button', { name: '注册并加入' }).click();
  await expect(screen.getByRole('status')).toHaveText('你已加入「示例公司」。');
  await screen.getByRole('button', { name: '进入组织' }).click();
  await expect(newcomer).toHaveURL(`${server.origin}/org`);
  await expect(newcomer.getByRole('region', { name: '当前身份' })).toContainText(
    '你正以 小李（示例公司）的身份操作',
  );
  await expect(newcomer.getByRole('region', { name: '权限说明' })).toContainText('我的权限: 查看成员');

  // A second invitation, by mobile, accepted by an existing account signed in with that mobile.
  const memberPage = await anotherPerson(newContext, servers, server);
  const memberMobile = uniqueMobile();
  await registeredThroughApi(memberPage, server, outbox, { mobile: memberMobile, password: PASSWORD });
  await invite.getByLabel('邀请方式').selectOption('mobile');
  await invite.getByLabel('邀请对象（手机号、邮箱或聊天账号）').fill(memberMobile);
  await invite.getByLabel('成员名称').fill('小王');
  await invite.getByLabel('角色').selectOption('viewer');
  await invite.getByRole('button', { name: '发送邀请' }).click();
  await expect(invite.getByRole('listitem').filter({ hasText: '小王' })).toContainText('待接受');
  await memberPage.goto(await outbox.inviteLink(memberMobile));
  const memberScreen = memberPage.getByRole('region', { name: '加入组织' });
  await memberScreen.getByRole('button', { name: '接受邀请' }).click();
  await expect(memberScreen.getByRole('status')).toHaveText('你已加入「示例公司」。');
  await memberScreen.getByRole('button', { name: '进入组织' }).click();
  await expect(memberPage).toHaveURL(`${server.origin}/org`);
  await expect(invite.getByRole('listitem').filter({ hasText: '小李' })).toContainText('已接受');

  // The manager starts the transfer: a code to their own mobile, then the new manager.
  const transfer = page.getByRole('region', { name: '转移管理员' });
  await expect(transfer).toContainText('当前管理员：老板');
  cooldownPassed(server, bossMobile);
  const sent = Date.now();
  await transfer.getByRole('button', { name: '发送验证码到我的手机' }).click();
  await transfer.getByLabel('验证码').fill(await outbox.code(bossMobile, sent));
  await transfer.getByRole('button', { name: '验证', exact: true }).click();
  await transfer.getByLabel('新管理员').selectOption({ label: '小王' });
  // Starting sends the new manager their code (type 101).
  cooldownPassed(server, memberMobile);
  const started = Date.now();
  await transfer.getByRole('button', { name: '发起转移' }).click();
  await expect(transfer).toContainText('正在将管理员转移给 小王，等待对方验证。');

  // The new manager sees it in their console and verifies with the code sent to them.
  await memberPage.reload();
  const memberTransfer = memberPage.getByRole('region', { name: '转移管理员' });
  await expect(memberTransfer).toContainText('老板 想将管理员转移给你。');
  await expect(memberTransfer.getByRole('button', { name: '发送验证码', exact: true })).toBeVisible();
  await memberTransfer.getByLabel('验证码').fill(await outbox.code(memberMobile, started));
  await memberTransfer.getByRole('button', { name: '验证并成为管理员' }).click();
  await expect(memberTransfer.getByRole('status').first()).toHaveText('管理员已转移。');

  // Both consoles show the new manager.
  await expect(memberTransfer).toContainText('当前管理员：小王');
  await expect(
    memberPage.getByRole('region', { name: '成员' }).getByRole('listitem').filter({ hasText: '小王' }),
  ).toContainText('管理员');
  await page.reload();
  await expect(page.getByRole('region', { name: '转移管理员' })).toContainText('当前管理员：小王');
  for (const viewport of [VIEWPORTS.xs, VIEWPORTS.lg]) {
    for (const p of [page, memberPage]) {
      await p.setViewportSize(viewport);
      expect(await seriousViolations(p), `axe on /org at ${viewport.width}px`).toEqual([]);
    }
  }
});
