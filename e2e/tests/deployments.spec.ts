import { chromiumArgs } from '../playwright.config';
import { startAppSite } from '../support/app-site';
import { chromiumPath } from '../support/chromium';
import { PASSWORD, registerByMobile, signInBySms, signOut } from '../support/person';
import { freePort, type RunningServer, startServer } from '../support/server';
import { expect, Outbox, test, uniqueMobile } from '../support/test';

// docs/deploying.md. In the development default (PUBLIC_ORIGIN http://localhost:$PORT) the server is
// one origin under its loopback spellings: a newcomer who opens the address the start banner names
// (127.0.0.1) registers, signs out and signs in there, every form passing the CSRF origin check.
test('127.0.0.1 works like localhost in the development default', async ({ page, server, outbox }) => {
  const viaLoopbackAddress = { ...server, origin: `http://127.0.0.1:${server.port}` };
  const mobile = uniqueMobile();
  await registerByMobile(page, viaLoopbackAddress, outbox, { mobile, password: PASSWORD });
  await signOut(page, viaLoopbackAddress);
  await signInBySms(page, viaLoopbackAddress, outbox, { mobile });
});

// Topology 2: the product's app on app.acme.test calls the passport on
// passport.acme.test. Chromium maps both names to loopback; each test starts its own passport server
// (its PUBLIC_ORIGIN names the port) and the app's page.
test.use({
  launchOptions: {
    executablePath: chromiumPath(),
    args: [...chromiumArgs, '--host-resolver-rules=MAP *.acme.test 127.0.0.1'],
  },
});

async function sibling(
  cookieDomain: string | undefined,
  run: (app: string, passport: RunningServer) => Promise<void>,
) {
  const port = await freePort();
  const site = await startAppSite(`http://passport.acme.test:${port}`);
  const app = `http://app.acme.test:${site.port}`;
  const passport = await startServer({
    env: {
      PORT: String(port),
      PUBLIC_ORIGIN: `http://passport.acme.test:${port}`,
      ALLOWED_ORIGINS: app,
      DEV_OUTBOX: 'on',
      // The test difficulty is for loopback origins only, and this passport is passport.acme.test.
      POW_DIFFICULTY: 'default',
      ...(cookieDomain ? { COOKIE_DOMAIN: cookieDomain } : {}),
    },
  });
  try {
    await run(app, passport);
  } finally {
    await passport.stop();
    await site.close();
  }
}

test('with COOKIE_DOMAIN the app on a sibling host signs in by SMS code', async ({ page }) => {
  await sibling('acme.test', async (app, passport) => {
    const mobile = uniqueMobile();
    await page.goto(app);
    await page.getByLabel('Mobile').fill(mobile);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('status')).toHaveText('code sent');
    await page.getByLabel('Code').fill(await new Outbox(passport.origin).code(mobile));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('status')).toHaveText(/^signed in as \S+$/);
  });
});

test('without COOKIE_DOMAIN the page says what to configure and the server logs why', async ({ page }) => {
  await sibling(undefined, async (app, passport) => {
    await page.goto(app);
    await page.getByLabel('Mobile').fill(uniqueMobile());
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByRole('status')).toContainText('1011');
    await expect(page.getByRole('status')).toContainText('COOKIE_DOMAIN');
    // The log line travels through the child's stdout pipe and can arrive after the answer.
    await expect
      .poll(() => passport.output())
      .toMatch(/cannot read the passport_csrf_token cookie.*set COOKIE_DOMAIN/);
  });
});
