import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { devices } from '@playwright/test';
import * as oidc from 'openid-client';
import { registeredThroughApi, signedInBySmsThroughApi } from '../support/account-api';
import { nationalNumber, PASSWORD, sendCodeAndRead, typeCode } from '../support/person';
import { decodeQr, pickShownNumber } from '../support/qr';
import { expect, test, uniqueEmail, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 16: open authorization in Chromium. A small third-party web app on loopback (openid-client as
// the relying party, registered by RFC 7591 with OPEN_REGISTRATION_TOKEN) sends a person to Portico;
// they sign in on the consent page by SMS code, switch the optional scope off, approve, and the app
// shows their name from userinfo. Revoking the app in the account centre makes its refresh fail; a
// denial comes back to the app as error=access_denied. A person may also sign in there by QR code,
// confirmed on a signed-in phone.

const REGISTRATION_TOKEN = 'e2e-registration-token-0123456789';

interface ThirdPartyApp {
  origin: string;
  /** The scope the app asks for at /start. */
  scope: string;
  /** Refreshes with the refresh token of the last sign-in: true when the provider still honours it. */
  refresh(): Promise<boolean>;
  close(): Promise<void>;
}

async function startThirdPartyApp(
  issuer: string,
  scope = 'openid user_info video.list',
): Promise<ThirdPartyApp> {
  let refreshToken = '';
  let idToken = '';
  let pending = { verifier: '', state: '' };
  let config: oidc.Configuration | undefined;
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    try {
      if (!config) throw new Error('not registered');
      if (url.pathname === '/start') {
        pending = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState() };
        const target = oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${origin}/callback`,
          scope,
          ...(scope.includes('video.list') ? { optional_scope: 'video.list' } : {}),
          code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
          code_challenge_method: 'S256',
          state: pending.state,
        });
        response.writeHead(302, { location: target.href }).end();
        return;
      }
      // RP-initiated logout: to Portico's end-session endpoint, back to /logged-out.
      if (url.pathname === '/logout') {
        const target = oidc.buildEndSessionUrl(config, {
          id_token_hint: idToken,
          post_logout_redirect_uri: `${origin}/logged-out`,
        });
        response.writeHead(302, { location: target.href }).end();
        return;
      }
      if (url.pathname === '/logged-out') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<!doctype html><title>Video Club</title><p>signed out of Video Club</p>');
        return;
      }
      if (url.pathname === '/callback') {
        if (url.searchParams.get('error')) {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          response.end(
            `<!doctype html><title>Video Club</title><p>error: ${url.searchParams.get('error')}</p>`,
          );
          return;
        }
        const tokens = await oidc.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
        });
        refreshToken = tokens.refresh_token ?? '';
        idToken = tokens.id_token ?? '';
        const claims = tokens.claims();
        const me = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub ?? '');
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          `<!doctype html><title>Video Club</title><p>hello ${String(me.name)}</p><p>email: ${String(me.email ?? '')}</p><p>scope: ${tokens.scope}</p>`,
        );
        return;
      }
      response.writeHead(404).end();
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const registered = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { authorization: `Bearer ${REGISTRATION_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Video Club',
      redirect_uris: [`${origin}/callback`],
      post_logout_redirect_uris: [`${origin}/logged-out`],
      token_endpoint_auth_method: 'client_secret_basic',
    }),
  });
  const client = (await registered.json()) as { client_id: string; client_secret: string };
  config = await oidc.discovery(new URL(issuer), client.client_id, client.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  return {
    origin,
    scope,
    async refresh() {
      try {
        await oidc.refreshTokenGrant(config as oidc.Configuration, refreshToken);
        return true;
      } catch {
        return false;
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const it = test.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
  serverOptions: async ({}, use) => {
    await use({
      env: {
        OPEN_REGISTRATION_TOKEN: REGISTRATION_TOKEN,
        OPEN_SCOPES: 'video.list=读取你的视频列表|Read your video list',
      },
    });
  },
});

// The consent page follows the browser's language when the app names none and the person chose none.
it.use({ locale: 'zh-CN' });

// One group, run by one worker one test after another: the settings' server starts once in the run,
// not once in each worker.
it.describe.configure({ mode: 'default' });

it('a third-party app: sign in on the consent page, an optional scope off, approve, revoke, deny', async ({
  page,
  server,
  outbox,
}) => {
  const app = await startThirdPartyApp(`${server.origin}/oauth`);
  try {
    const mobile = uniqueMobile();
    await page.goto(`${app.origin}/start`);
    await expect(page).toHaveURL(new RegExp(`^${server.origin}/authorization\\?interaction=`));
    await expect(page.getByText('Video Club 请求使用你的 Portico 账号')).toBeVisible();
    await expect(page.getByRole('heading', { name: '请先登录，再决定是否授权' })).toBeVisible();
    const form = page.getByRole('tabpanel');
    await form.getByRole('textbox', { name: '手机号', exact: true }).fill(nationalNumber(mobile));
    const code = await sendCodeAndRead(form, outbox, mobile);
    await typeCode(form, code);
    await form.getByRole('button', { name: /^登录/ }).click();

    const optional = page.getByRole('switch', { name: '读取你的视频列表' });
    await expect(optional).toBeChecked();
    expect(await seriousViolations(page), 'axe on the consent page').toEqual([]);
    await optional.click();
    await expect(optional).not.toBeChecked();
    await page.getByRole('button', { name: '同意授权' }).click();
    await expect(page).toHaveURL(new RegExp(`^${app.origin}/callback`));
    await expect(page.getByText(/^hello \S+/)).toBeVisible();
    await expect(page.getByText(/^scope: /)).not.toContainText('video.list');
    expect(await app.refresh()).toBe(true);

    // The account centre: revoke the app; its refresh token is dead at once.
    await page.goto(`${server.origin}/account/apps`);
    await page.getByRole('button', { name: '撤销授权: Video Club' }).click();
    // Destructive: confirmed in a dialog first.
    await page.getByRole('alertdialog').getByRole('button', { name: '撤销授权' }).click();
    await expect(page.getByText('你还没有授权任何应用。')).toBeVisible();
    expect(await app.refresh()).toBe(false);

    // Again, and deny: the app hears access_denied.
    await page.goto(`${app.origin}/start`);
    await expect(page).toHaveURL(new RegExp(`^${server.origin}/authorization\\?interaction=`));
    await page.getByRole('button', { name: '拒绝' }).click();
    await expect(page).toHaveURL(new RegExp(`^${app.origin}/callback\\?.*error=access_denied`));
  } finally {
    await app.close();
  }
});

it('a third-party app: sign in on the consent page by QR code with a signed-in phone, approve', async ({
  page,
  newContext,
  server,
  outbox,
}) => {
  const app = await startThirdPartyApp(`${server.origin}/oauth`);
  // The phone (Pixel 7 emulation), signed in by SMS code, as in qr-login.spec.ts.
  const phone = await newContext({ ...devices['Pixel 7'] });
  try {
    const phonePage = await phone.newPage();
    const mobile = uniqueMobile();
    await signedInBySmsThroughApi(phonePage, server, outbox, { mobile });

    await page.goto(`${app.origin}/start`);
    await expect(page).toHaveURL(new RegExp(`^${server.origin}/authorization\\?interaction=`));
    await expect(page.getByRole('heading', { name: '请先登录，再决定是否授权' })).toBeVisible();
    const tab = page.getByRole('tab', { name: '扫码登录', exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    const address = await decodeQr(page);
    expect(address).toMatch(new RegExp(`^${server.origin}/app/qr\\?token=`));

    await phonePage.goto(address);
    await pickShownNumber(page, phonePage);

    // Signed in by the phone: the same question, now with the answer buttons; the page stays put.
    const approve = page.getByRole('button', { name: '同意授权' });
    await expect(approve).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`^${server.origin}/authorization\\?interaction=`));
    await approve.click();
    await expect(page).toHaveURL(new RegExp(`^${app.origin}/callback`));
    await expect(page.getByText(/^hello \S+/)).toBeVisible();
    await expect(page.getByText(/^scope: /)).toContainText('video.list');
    expect(await app.refresh()).toBe(true);
  } finally {
    await phone.close();
    await app.close();
  }
});

it.describe('in an English browser', () => {
  it.use({ locale: 'en-US' });

  it('English consent for profile and email; the app shows name and e-mail, then ends the Portico session', async ({
    page,
    server,
    outbox,
  }) => {
    const app = await startThirdPartyApp(`${server.origin}/oauth`, 'openid profile email');
    try {
      const email = uniqueEmail('oauth');
      await registeredThroughApi(page, server, outbox, { email, password: PASSWORD });
      await page.goto(`${app.origin}/start`);
      await expect(page).toHaveURL(new RegExp(`^${server.origin}/authorization\\?interaction=`));
      await expect(page.getByText('Video Club wants to use your Portico account')).toBeVisible();
      await expect(page.getByText('Your e-mail address')).toBeVisible();
      await expect(page.getByText(/Your basic profile/)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page).toHaveURL(new RegExp(`^${app.origin}/callback`));
      await expect(page.getByText(/^hello \S+/)).toBeVisible();
      await expect(page.getByText(`email: ${email}`)).toBeVisible();

      // RP-initiated logout: Portico asks, in English; the person signs out and is back at the app.
      await page.goto(`${app.origin}/logout`);
      await expect(page.getByRole('heading', { name: 'Sign out?', level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Sign out' }).first().click();
      await expect(page).toHaveURL(`${app.origin}/logged-out`);
      // The Portico session is gone: the account centre asks for a sign-in.
      const info = await page.request.get(`${server.origin}/passport/web/account/info/`);
      expect(((await info.json()) as { message: string }).message).not.toBe('success');
    } finally {
      await app.close();
    }
  });
});

it.describe('a device (RFC 8628) signed in from a second browser', () => {
  it.use({ locale: 'en-US' });

  it('a CLI shows a code; the person confirms it in another browser context and consents; the CLI gets tokens', async ({
    newContext,
    server,
    outbox,
  }) => {
    const issuer = `${server.origin}/oauth`;
    // The CLI: a public client with the device grant, registered by RFC 7591, openid-client polling.
    const registered = await fetch(`${issuer}/reg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${REGISTRATION_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Video CLI',
        redirect_uris: [],
        response_types: [],
        grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const cli = (await registered.json()) as { client_id: string };
    const config = await oidc.discovery(new URL(issuer), cli.client_id, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile' });
    const polled = oidc.pollDeviceAuthorizationGrant(config, started);

    // The person, in a second browser context (another device), signed in to Portico.
    const other = await newContext({ locale: 'en-US' });
    try {
      const page = await other.newPage();
      await signedInBySmsThroughApi(page, server, outbox, { mobile: uniqueMobile() });
      await page.goto(started.verification_uri);
      await expect(page.getByRole('heading', { name: 'Connect a device' })).toBeVisible();
      await page.getByLabel('The code on your device').fill(started.user_code);
      await page.getByRole('button', { name: 'Continue' }).click();
      // The same code as on the device, to compare, next to the app's name.
      await expect(page.getByText('Video CLI wants to use your Portico account on a device.')).toBeVisible();
      await expect(page.getByText(started.user_code, { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'The codes match, continue' }).click();
      await expect(page).toHaveURL(new RegExp(`^${server.origin}/authorization\\?interaction=`));
      await expect(page.getByText('Video CLI wants to use your Portico account')).toBeVisible();
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('heading', { name: 'Device connected' })).toBeVisible();

      const tokens = await polled;
      const me = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub ?? '');
      expect(me.name).toBeTruthy();
    } finally {
      await other.close();
    }
  });
});
