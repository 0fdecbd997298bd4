import { managerAndSignedOutMember } from '../support/account-api';
import { addPasskey, virtualAuthenticator } from '../support/authenticator';
import { createOrganisation, createRole, inviteMember, memberJoins } from '../support/organisation';
import { expect, test } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// "Members must use a second factor" (docs/organisations.md) in Chromium, two people in two browser
// contexts, each with the DevTools protocol's virtual authenticator (zh): the manager sets up a passkey
// and, confirmed, requires one of the organisation's members; a member who is in the organisation's
// identity without a factor is asked to set one up in a dialog, creates a passkey there, and continues in
// the console.

test('a member without a second factor sets up a passkey in the dialog, then continues', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const { memberContext, memberPage, memberMobile } = await managerAndSignedOutMember(
    page,
    newContext,
    server,
    outbox,
  );
  await virtualAuthenticator(page);
  await virtualAuthenticator(memberPage);

  // The manager's organisation, a role that reads members, and the member invited with it, who accepts.
  await createOrganisation(page, server.origin);
  await createRole(page);
  await inviteMember(page, memberMobile);
  await memberJoins(memberPage, server, outbox, memberMobile);
  await expect(memberPage.getByRole('region', { name: '成员' })).toBeVisible();

  // The manager adds a passkey (its first factor proves it in this session), then turns the rule on.
  await page.goto(`${server.origin}/account/security`);
  await addPasskey(page, '老板的电脑');
  await page.goto(`${server.origin}/org`);
  const settings = page.getByRole('region', { name: '组织设置' });
  await expect(settings).toContainText('成员不必使用第二验证因素。');
  await settings.getByRole('button', { name: '要求成员使用第二验证因素' }).click();
  const confirm = page.getByRole('alertdialog', { name: '要求「示例公司」的成员使用第二验证因素？' });
  await expect(confirm.getByRole('button', { name: '取消' })).toBeFocused();
  await confirm.getByRole('button', { name: '要求成员使用第二验证因素' }).click();
  await expect(settings).toContainText('成员必须使用第二验证因素');

  // The member, still in the organisation's identity, is asked to set up a factor where they are: the
  // console's calls wait for the dialog, and go through once the passkey is made.
  await memberPage.reload();
  const enrol = memberPage.getByRole('dialog', { name: '设置第二验证因素' });
  await expect(enrol).toContainText('这个组织要求成员使用通行密钥或身份验证器应用。');
  await expect(enrol.getByRole('button', { name: '创建通行密钥' })).toBeFocused();
  expect(await seriousViolations(memberPage), 'axe on /org asking for a factor').toEqual([]);
  await enrol.getByRole('button', { name: '创建通行密钥' }).click();
  await expect(enrol).toHaveCount(0);
  const memberList = memberPage.getByRole('region', { name: '成员' });
  await expect(memberList.getByRole('listitem').filter({ hasText: '老板' })).toBeVisible();
  await memberContext.close();
});
