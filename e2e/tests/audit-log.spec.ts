import { openSecurity } from '../support/account-centre';
import {
  PASSWORD,
  passSecondVerify,
  registerByMobile,
  signOut,
  submitPasswordSignIn,
} from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// The audit log as a person sees it (zh): the account centre's "recent security activity" names a
// sign-in from a browser the account did not know as a new device, and one from a known browser as a
// known device.

test('a person sees their own new-device sign-in in the account centre', async ({
  page,
  browser,
  server,
  outbox,
}) => {
  const mobile = uniqueMobile();
  // Registered here: this browser is the account's known device; signing in again here is known.
  await registerByMobile(page, server, outbox, { mobile, password: PASSWORD });
  await signOut(page, server);
  await submitPasswordSignIn(page, server, { account: mobile, password: PASSWORD });
  await expect(page).toHaveURL(`${server.origin}/workbench`);

  // Another browser: the password, then the second verification by SMS code.
  const elsewhere = await browser.newContext();
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
