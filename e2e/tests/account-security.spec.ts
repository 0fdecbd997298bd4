import { signedInBySmsOnWorkbench, signedInBySmsThroughApi } from '../support/account-api';
import { addEmailAndUsername, openSecurity } from '../support/account-centre';
import {
  expectWorkbench,
  letResendCooldownPass,
  PASSWORD,
  sendCodeAndRead,
  signOut,
  submitPasswordSignIn,
  typeCode,
} from '../support/person';
import { expect, test, uniqueEmail, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 14 part 3: the account centre's security page (/account/security) in Chromium, acting as a
// person through the real UI (zh) against the server started as the README starts it. The codes come
// from the dev outbox, the person's phone and mailbox.

test.describe('the account centre: mobile, e-mail, username and password (zh)', () => {
  test('a person signed up by SMS adds an e-mail and a username with a password, signs out, and signs in with the username', async ({
    page,
    server,
    outbox,
  }) => {
    const mobile = uniqueMobile();
    const email = uniqueEmail('bind');
    const username = `Maple${Date.now().toString(36)}`;

    // Signed up by SMS (through the API): the first SMS sign-in of a number creates its account.
    await signedInBySmsOnWorkbench(page, server, outbox, { mobile });
    await openSecurity(page, server);
    expect(await seriousViolations(page), 'axe on /account/security').toEqual([]);
    await addEmailAndUsername(page, outbox, { email, username, password: PASSWORD });

    // Back on the workbench, sign out; then sign in with the username (typed in another case) and password.
    await page.getByRole('link', { name: '返回工作台' }).click();
    await expectWorkbench(page, server, { mobile, email });
    await signOut(page, server);
    await submitPasswordSignIn(page, server, { account: username.toUpperCase(), password: PASSWORD });
    await expectWorkbench(page, server, { mobile, email });
  });

  test('changes the mobile: proves it is them by a code to the current number, then verifies the new one', async ({
    page,
    server,
    outbox,
  }) => {
    const mobile = uniqueMobile();
    const next = uniqueMobile();
    await signedInBySmsThroughApi(page, server, outbox, { mobile });
    await page.goto(`${server.origin}/account/security`);
    const section = page.getByRole('region', { name: '手机号', exact: true });
    await section.getByRole('button', { name: '更换手机号' }).click();

    // Step 1: the focus lands on the step's heading; the current number, typed in full, gets a code.
    const verify = section.getByRole('region', { name: '第一步：确认是你本人' });
    await expect(verify.getByRole('heading', { name: '第一步：确认是你本人' })).toBeFocused();
    expect(await seriousViolations(page), 'axe on the verify step').toEqual([]);
    await verify.getByRole('textbox', { name: '完整的当前手机号' }).fill(mobile.slice(3));
    // The passport sends one code per number a minute: the sign-in code went to this number just now.
    letResendCooldownPass(server, mobile);
    const oldCode = await sendCodeAndRead(verify, outbox, mobile);
    await typeCode(verify, oldCode);
    await verify.getByRole('button', { name: '验证', exact: true }).click();

    // Step 2: the new number and its code.
    const step2 = section.getByRole('region', { name: '第二步：验证新手机号' });
    await expect(step2.getByRole('heading')).toBeFocused();
    await step2.getByRole('textbox', { name: '新手机号' }).fill(next.slice(3));
    const newCode = await sendCodeAndRead(step2, outbox, next);
    await typeCode(step2, newCode);
    await step2.getByRole('checkbox', { name: '同时退出其他设备上的登录' }).check();
    expect(await seriousViolations(page), 'axe on the new-number step').toEqual([]);
    await step2.getByRole('button', { name: '确认更换' }).click();
    await expect(section.getByText('手机号已更换。')).toBeVisible();
    await expect(section.getByText(`当前：${next.slice(0, 3)}`)).toBeVisible();
    await expect(section.getByText(next.slice(-4), { exact: false })).toBeVisible();
  });
});
