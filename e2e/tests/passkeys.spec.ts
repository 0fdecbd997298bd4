import { registeredOnWorkbench, signedInBySmsOnWorkbench } from '../support/account-api';
import { openSecurity } from '../support/account-centre';
import { addPasskey, virtualAuthenticator } from '../support/authenticator';
import { advanceServerClock } from '../support/clock';
import {
  expectWorkbench,
  PASSWORD,
  secondVerifyDialog,
  signOut,
  submitPasswordSignIn,
} from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Passkeys (docs/factors.md) in Chromium with its virtual authenticator (the DevTools protocol's
// WebAuthn domain: a CTAP2 platform authenticator with resident keys and user verification, which
// answers by itself): a person signed up by SMS adds a passkey on the account security page, signs
// out, and signs in with it without typing an identifier. zh, as the web app starts.

test('a person adds a passkey, signs out, and signs in with it and no identifier', async ({
  page,
  server,
  outbox,
}) => {
  const mobile = uniqueMobile();
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  await signedInBySmsOnWorkbench(page, server, outbox, { mobile });
  await openSecurity(page, server);

  // The passkeys section: none yet; add one with a name (the SMS sign-in is the fresh verification).
  const section = page.getByRole('region', { name: '通行密钥', exact: true });
  await expect(section.getByText('还没有通行密钥。')).toBeVisible();
  expect(await seriousViolations(page), 'axe on /account/security with passkeys').toEqual([]);
  await section.getByRole('button', { name: '添加通行密钥' }).click();
  await section.getByRole('textbox', { name: '名称' }).fill('工作电脑');
  await section.getByRole('button', { name: '创建通行密钥' }).click();
  await expect(section.getByRole('status')).toHaveText('已添加通行密钥“工作电脑”。');
  const list = section.getByRole('list', { name: '你的通行密钥' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('工作电脑');
  await expect(list.getByRole('listitem')).toContainText(/仅在这台设备上|已同步到你的其他设备/);
  await expect(list.getByRole('listitem')).toContainText('尚未使用');
  expect(await seriousViolations(page), 'axe with a passkey listed').toEqual([]);

  // The authenticator now holds one discoverable credential for this site, made for a random handle.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
  expect(Buffer.from(credentials[0]!.userHandle ?? '', 'base64')).toHaveLength(32);

  // Remove asks first; Cancel keeps it.
  await list.getByRole('button', { name: '删除: 工作电脑' }).click();
  const dialog = page.getByRole('alertdialog', { name: '删除通行密钥“工作电脑”？' });
  // Cancel has the focus first, so Enter never removes by accident.
  await expect(dialog.getByRole('button', { name: '取消' })).toBeFocused();
  // The dialog itself (the page behind is aria-hidden while it is open, and the focus stays inside).
  expect(await seriousViolations(page, '[role="alertdialog"]'), 'axe on the removal confirmation').toEqual(
    [],
  );
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // Signed out, the sign-in page offers the passkey: no identifier typed.
  await page.getByRole('link', { name: '返回工作台' }).click();
  await signOut(page, server);
  await expect(page.getByRole('textbox', { name: '手机号、邮箱或用户名' })).toHaveCount(0);
  const button = page.getByRole('button', { name: '使用通行密钥登录' });
  await expect(button).toBeVisible();
  expect(await seriousViolations(page), 'axe on /login with the passkey button').toEqual([]);
  await button.click();
  await expectWorkbench(page, server, { mobile });

  // The passkey records its use; the sign-in is in the person's activity with its method.
  await page.goto(`${server.origin}/account/security`);
  await expect(
    page.getByRole('region', { name: '通行密钥', exact: true }).getByRole('listitem'),
  ).toContainText('上次使用');
  // The activity is copied from the events by the audit log's consumer: wait for it.
  await expect
    .poll(async () =>
      page.evaluate(async () => {
        const response = await fetch('/passport/web/account/activity/', { credentials: 'include' });
        const body = (await response.json()) as {
          data: { entries: { type: string; data: { method?: string } }[] };
        };
        return body.data.entries.find((entry) => entry.type === 'account.signed_in')?.data.method;
      }),
    )
    .toBe('passkey');
});

test('the identifier fields offer passkeys in the autofill', async ({ page, server }) => {
  await page.goto(`${server.origin}/login`);
  await page.getByRole('tab', { name: '密码', exact: true }).click();
  await expect(page.getByRole('textbox', { name: '手机号、邮箱或用户名' })).toHaveAttribute(
    'autocomplete',
    'username webauthn',
  );
});

test.describe('a passkey as a factor', () => {
  // One group, run by one worker one test after another: TEST_CLOCK's server starts once here.
  test.describe.configure({ mode: 'default' });
  test.use({ serverOptions: { env: { TEST_CLOCK: 'on' } } });

  test('a person with a passkey steps up with it before adding a new way in', async ({
    page,
    server,
    outbox,
  }) => {
    const mobile = uniqueMobile();
    await virtualAuthenticator(page);
    await signedInBySmsOnWorkbench(page, server, outbox, { mobile });
    await openSecurity(page, server);
    await addPasskey(page, '工作电脑');

    // Eleven minutes later the verification is stale: setting up an authenticator app (a new way to
    // prove it is you) asks for a step-up, which the passkey answers.
    await advanceServerClock(page, 11 * 60_000);
    const app = page.getByRole('region', { name: '身份验证器应用' });
    await app.getByRole('button', { name: '设置身份验证器' }).click();
    const stepUp = page.getByRole('dialog', { name: '确认是你本人' });
    await expect(stepUp).toBeVisible();
    await stepUp.getByRole('group', { name: '验证方式' }).getByRole('radio', { name: '通行密钥' }).check();
    expect(await seriousViolations(page), 'axe on the step-up with a passkey').toEqual([]);
    await stepUp.getByRole('button', { name: '验证并继续' }).click();
    await expect(stepUp).toHaveCount(0);
    await expect(app.getByRole('img', { name: '身份验证器设置二维码' })).toBeVisible();
  });

  test('a new device answers the second verification with the passkey', async ({
    page,
    newContext,
    server,
    outbox,
  }) => {
    const mobile = uniqueMobile();
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await registeredOnWorkbench(page, server, outbox, { mobile, password: PASSWORD });
    await openSecurity(page, server);
    await addPasskey(page, '手机');

    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    // The laptop's browser offers no passkeys in its autofill, as some browsers do not. With the
    // autofill's wait pending on the sign-in page, Chromium's virtual authenticator (which answers
    // by itself) signed in through it the moment the synced passkey arrived, racing the dialog's
    // ceremony; the autofill has its own tests above.
    const laptopContext = await newContext();
    await laptopContext.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    const laptop = await laptopContext.newPage();
    const synced = await virtualAuthenticator(laptop);

    const textsBefore = (await outbox.codeMessages(mobile)).length;
    await submitPasswordSignIn(laptop, server, { account: mobile, password: PASSWORD });
    const dialog = secondVerifyDialog(laptop);
    await expect(dialog).toBeVisible();
    // The passkey synced to the laptop (its platform account): the same credential in its
    // authenticator, added once the password was typed.
    await synced.cdp.send('WebAuthn.addCredential', {
      authenticatorId: synced.authenticatorId,
      credential: credentials[0]!,
    });
    await dialog.getByRole('group', { name: '验证方式' }).getByRole('radio', { name: '通行密钥' }).check();
    expect(await seriousViolations(laptop), 'axe on the dialog with a passkey').toEqual([]);
    await dialog.getByRole('button', { name: '验证并登录' }).click();
    await expect(dialog).toHaveCount(0);
    await expectWorkbench(laptop, server, { mobile });
    // No code went out by text for it (a notice of a new way in may).
    expect(await outbox.codeMessages(mobile)).toHaveLength(textsBefore);
  });
});
