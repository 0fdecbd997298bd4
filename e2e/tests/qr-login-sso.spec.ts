import { devices } from '@playwright/test';
import { signedInBySmsThroughApi } from '../support/account-api';
import { masked } from '../support/person';
import { decodeQr, pickShownNumber } from '../support/qr';
import { type SsoService, startSsoService } from '../support/sso-service';
import { test as base, expect, uniqueMobile } from '../support/test';

// Issue 15 in the sso flavour: the sso sign-in page's QR tab polls the sso rows (sso envelope); a
// phone confirms; the desktop goes on to /sso/login, which hands the service its ticket.

const test = base.extend<{ service: SsoService }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  service: async ({}, use) => {
    const service = await startSsoService();
    try {
      await use(service);
    } finally {
      await service.stop();
    }
  },
  serverOptions: async ({ service }, use) => {
    await use({ env: { SSO_SERVICES: service.origin } });
  },
});

test.beforeEach(({ service, server }) => {
  service.passport = server.origin;
});

test('a QR sign-in on the sso page lands on the service with a ticket', async ({
  page,
  newContext,
  server,
  outbox,
  service,
}) => {
  const phone = await newContext({ ...devices['Pixel 7'] });
  try {
    const phonePage = await phone.newPage();
    const mobile = uniqueMobile();
    await signedInBySmsThroughApi(phonePage, server, outbox, { mobile });

    const polls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.includes('qrcode') || pathname.includes('qrconnect')) polls.push(pathname);
    });
    await page.goto(`${server.origin}/sso/login?service=${encodeURIComponent(service.callback)}`);
    await page.getByRole('tab', { name: '扫码登录', exact: true }).click();
    await expect(page.getByRole('img', { name: '登录二维码' })).toBeVisible();
    expect(polls[0]).toBe('/passport/sso/get_qrcode/');

    await phonePage.goto(await decodeQr(page));
    await expect(page.locator('.qr-login-number')).toBeVisible();
    expect(polls).toContain('/passport/sso/check_qrconnect/');
    expect(polls.filter((path) => path.startsWith('/passport/web/'))).toEqual([]);
    await pickShownNumber(page, phonePage);

    // Confirmed: the page redeems the code (web_login has no sso row) and goes on to /sso/login.
    await expect(page).toHaveURL(new RegExp(`^${service.callback.replace(/[.]/g, '\\.')}\\?ticket=ST-`));
    await expect(page.getByText(masked(mobile))).toBeVisible();
  } finally {
    await phone.close();
  }
});
