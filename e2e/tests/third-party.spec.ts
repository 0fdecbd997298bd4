import { addEmailAndUsername, openSecurity } from '../support/account-centre';
import { type OidcPeer, startOidcPeer } from '../support/oidc-peer';
import {
  expectWorkbench,
  nationalNumber,
  PASSWORD,
  sendCodeAndRead,
  signOut,
  submitPasswordSignIn,
  typeCode,
} from '../support/person';
import { expect, test, uniqueEmail, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 14: third-party sign-in in Chromium. A real OpenID provider on loopback stands in for Google
// (GOOGLE_ISSUER); the person signs in at its own pages, comes back to /google-oauth-callback, links
// the Google account to a new account by SMS code, signs out, and signs in again with Google in one click;
// then adds an e-mail and a username in the account centre and signs in with the username and password.

const it = test.extend<{ google: OidcPeer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
  google: async ({}, use) => {
    const peer = await startOidcPeer();
    await use(peer);
    await peer.close();
  },
  serverOptions: async ({ google }, use) => {
    await use({
      env: {
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_CLIENT_SECRET: google.clientSecret,
        GOOGLE_ISSUER: google.issuer,
      },
    });
  },
});

it('signs in with Google, links it to a new account by SMS code, and signs in again with one click', async ({
  page,
  server,
  outbox,
  google,
}) => {
  await google.allow(`${server.origin}/google-oauth-callback`, {
    alice: { name: 'Alice Example', email: 'alice@example.com', email_verified: true },
  });
  const mobile = uniqueMobile();

  await page.goto(`${server.origin}/login`);
  // Only the configured provider has a button (GitHub is not configured here).
  await expect(page.getByRole('button', { name: '使用 Google 登录' })).toBeVisible();
  await expect(page.getByRole('button', { name: '使用 GitHub 登录' })).toHaveCount(0);
  await page.getByRole('button', { name: '使用 Google 登录' }).click();

  // The provider's own sign-in and consent pages.
  await expect(page).toHaveURL(new RegExp(`^${google.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill('alice');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Back at the callback page: the identity is not linked yet, so the person chooses.
  await expect(page).toHaveURL(new RegExp(`^${server.origin}/google-oauth-callback\\?`));
  await expect(page.getByRole('heading', { level: 1, name: '关联你的 Google 账号' })).toBeVisible();
  await expect(page.getByText('Alice Example，这个 Google 账号还没有关联任何账号。')).toBeVisible();
  expect(await seriousViolations(page), 'axe on the choice screen').toEqual([]);
  const form = page.getByRole('tabpanel');
  await form.getByRole('textbox', { name: '手机号', exact: true }).fill(nationalNumber(mobile));
  const code = await sendCodeAndRead(form, outbox, mobile);
  await typeCode(form, code);
  await form.getByRole('button', { name: '登录并关联' }).click();
  await expectWorkbench(page, server, { mobile });

  await signOut(page, server);

  // Again: the provider remembers Alice and her consent, the passport the link: one click.
  await page.getByRole('button', { name: '使用 Google 登录' }).click();
  await expectWorkbench(page, server, { mobile });

  // The account centre lists the link.
  await page.goto(`${server.origin}/account/linked`);
  await expect(page.getByRole('heading', { level: 1, name: '已关联的账号' })).toBeVisible();
  await expect(page.getByText('已关联：Alice Example')).toBeVisible();
  expect(await seriousViolations(page), 'axe on /account/linked').toEqual([]);
  // Google is the only way in besides the mobile number: unlinking it is allowed and leaves it listed as not linked.
  await page.getByRole('button', { name: '解除关联 Google' }).click();
  await expect(page.getByText('未关联')).toBeVisible();
  await expect(page.getByRole('button', { name: '关联 Google' })).toBeVisible();

  // The same person adds an e-mail and a username with a password in the account centre, signs out,
  // and signs in with the username and password.
  const email = uniqueEmail('alice');
  const username = `Alice${Date.now().toString(36)}`;
  await page.goto(`${server.origin}/workbench`);
  await openSecurity(page, server);
  await addEmailAndUsername(page, outbox, { email, username, password: PASSWORD });
  await page.getByRole('link', { name: '返回工作台' }).click();
  await expectWorkbench(page, server, { mobile, email });
  await signOut(page, server);
  await submitPasswordSignIn(page, server, { account: username, password: PASSWORD });
  await expectWorkbench(page, server, { mobile, email });
});
