import type { Page } from '@playwright/test';
import { logoutUrl, thirdPartyLoginUrl } from '@portico/account-sdk';
import { webPaths } from '@portico/account-sdk/protocol';
import { addEmailAndUsername, openSecurity } from '../support/account-centre';
import { type LinkSite, startLinkSite } from '../support/app-site';
import { type OidcPeer, startOidcPeer } from '../support/oidc-peer';
import { createOrganisation } from '../support/organisation';
import {
  expectWorkbench,
  nationalNumber,
  PASSWORD,
  sendCodeAndRead,
  signOut,
  submitPasswordSignIn,
  typeCode,
} from '../support/person';
import { test as base, expect, uniqueEmail, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';
import { startWeChatPeer, type WeChatPeer } from '../support/wechat-peer';

// Issue 14: third-party sign-in in Chromium. A real OpenID provider on loopback stands in for Google
// (GOOGLE_ISSUER); the person signs in at its own pages, comes back to /google-oauth-callback, links
// the Google account to a new account by SMS code, signs out, and signs in again with Google in one click;
// then adds an e-mail and a username in the account centre and signs in with the username and password.
// WeChat's website sign-in (WECHAT_*) against a WeChat-shaped peer on loopback: its page shows a QR code,
// the person's phone (the test) scans it and confirms or refuses. A product in organisation mode
// (`subject_aid`, docs/organisations.md) on a host of its own links to the passport to sign a member in
// to the organisation's identity and out of it.

const WECHAT = { appId: 'wx0123456789abcdef', appSecret: 'wechat-secret-0123456789abcdef' };

// The peers and the product's site are the worker's: their ports are in the server's settings, so the
// file's tests share one server.
const it = base.extend<object, { google: OidcPeer; wechat: WeChatPeer; site: LinkSite }>({
  google: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
    async ({}, use) => {
      const peer = await startOidcPeer();
      await use(peer);
      await peer.close();
    },
    { scope: 'worker' },
  ],
  wechat: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
    async ({}, use) => {
      const peer = await startWeChatPeer(WECHAT);
      await use(peer);
      await peer.close();
    },
    { scope: 'worker' },
  ],
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
    async ({}, use) => {
      const site = await startLinkSite();
      await use(site);
      await site.close();
    },
    { scope: 'worker' },
  ],
  serverOptions: async ({ google, wechat, site }, use) => {
    await use({
      env: {
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_CLIENT_SECRET: google.clientSecret,
        GOOGLE_ISSUER: google.issuer,
        WECHAT_APP_ID: WECHAT.appId,
        WECHAT_APP_SECRET: WECHAT.appSecret,
        WECHAT_BASE_URL: wechat.baseUrl,
        WECHAT_API_URL: wechat.apiUrl,
        // The product's site: a link from it to the GET logout gets the confirmation page (a trusted
        // Referer), not a refusal.
        ALLOWED_ORIGINS: site.origin,
      },
    });
  },
});

/** A person with a WeChat account (their phone), by openid. */
function wechatPerson(wechat: WeChatPeer, nickname: string): string {
  const openid = `o${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  wechat.users.set(openid, { openid, nickname, headimgurl: '' });
  return openid;
}

/**
 * On WeChat's page the person scans its QR code with their phone (the code's uuid, in the picture's
 * address as on WeChat's page) and answers there: the page follows the phone's answer.
 */
async function scanOnPhone(page: Page, wechat: WeChatPeer, answer: (uuid: string) => void) {
  await expect(page).toHaveURL(new RegExp(`^${wechat.baseUrl}/connect/qrconnect\\?`));
  const picture = page.getByRole('img', { name: '微信登录二维码' });
  answer((await picture.getAttribute('src'))?.split('/').pop() ?? '');
}

/** What /org says of the identity the session acts as. */
const currentIdentity = (page: Page) => page.getByRole('region', { name: '当前身份' });

it.describe('third-party sign-in (one server: Google, WeChat, the product’s site)', () => {
  it.describe.configure({ mode: 'default' });

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
    // Only the configured providers have a button (GitHub is not configured here).
    await expect(page.getByRole('button', { name: '使用 Google 登录' })).toBeVisible();
    await expect(page.getByRole('button', { name: '使用微信登录' })).toBeVisible();
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

  it('signs up by scanning WeChat’s QR code; a product in organisation mode signs them in to their organisation and out of it, and refuses a non-member', async ({
    page,
    server,
    wechat,
    site,
    newContext,
  }) => {
    const openid = wechatPerson(wechat, '小明');
    // The QR page's first long-poll is dropped (a network blip): the page asks again, as WeChat's does.
    let dropped = 0;
    await page.route(
      `${wechat.baseUrl}/connect/l/qrconnect**`,
      (route) => {
        dropped += 1;
        return route.abort('connectionreset');
      },
      { times: 1 },
    );
    await page.goto(`${server.origin}/login`);
    await page.getByRole('button', { name: '使用微信登录' }).click();
    await scanOnPhone(page, wechat, (uuid) => wechat.confirm(uuid, openid));
    // Back at the callback page: no account links this WeChat account yet; the person makes one with it.
    await expect(page).toHaveURL(new RegExp(`^${server.origin}/wechat-oauth-callback\\?`));
    await expect(page.getByRole('heading', { level: 1, name: '关联你的微信账号' })).toBeVisible();
    expect(dropped).toBe(1);
    await page.getByRole('button', { name: '用微信创建新账号' }).click();
    await expectWorkbench(page, server);

    // They run an organisation, acting as its identity.
    await createOrganisation(page, server.origin, { name: '微光工作室', as: '小明' });
    const subject = await page.evaluate(
      async (path) => (await (await fetch(path)).json()).data.org.sec_subject_uid as string,
      webPaths.accountInfo,
    );
    // The product's links, as its SDK makes them for this organisation.
    const passport = { aid: 1128, baseUrl: server.origin };
    site.show({
      离开组织: logoutUrl(passport, { subject_aid: subject, next: '/org' }),
      用微信登录组织: thirdPartyLoginUrl(passport, { platform_app_id: 'wechat', subject_aid: subject }),
    });

    // Leaving the organisation from the product: a link from another site is confirmed first, by a page
    // that says what confirming does (not "sign out"); then only the organisation's identity is left,
    // and the person stays signed in as themselves.
    await page.goto(site.origin);
    await page.getByRole('link', { name: '离开组织' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: '不再以 小明（微光工作室）的身份操作？' }),
    ).toBeVisible();
    await expect(page.getByText('不再以 小明（微光工作室）的身份操作，回到个人身份')).toBeVisible();
    await expect(page.getByText(/退出登录|Sign out/)).toHaveCount(0);
    await page.getByRole('button', { name: '回到个人身份' }).click();
    await expect(page).toHaveURL(`${server.origin}/org`);
    await expect(currentIdentity(page)).toContainText('你正以个人身份操作');

    // Signing in to the organisation from the product: WeChat, then straight into its identity.
    await page.goto(site.origin);
    await page.getByRole('link', { name: '用微信登录组织' }).click();
    await scanOnPhone(page, wechat, (uuid) => wechat.confirm(uuid, openid));
    await expectWorkbench(page, server);
    await page.goto(`${server.origin}/org`);
    await expect(currentIdentity(page)).toContainText('你正以 小明（微光工作室）的身份操作');

    // Someone who is no member of it follows the same link: refused in words, and not signed in.
    const stranger = await (await newContext()).newPage();
    await stranger.goto(site.origin);
    await stranger.getByRole('link', { name: '用微信登录组织' }).click();
    const theirs = wechatPerson(wechat, '路人');
    await scanOnPhone(stranger, wechat, (uuid) => wechat.confirm(uuid, theirs));
    await expect(stranger.getByRole('heading', { level: 1, name: '微信登录没有完成' })).toBeVisible();
    // The catalogue's SUBJECT_NOT_FOUND (affiliate-sdk's protocol/errors.ts), as the server says it.
    await expect(stranger.getByRole('alert')).toHaveText('组织不存在或你不是其成员');
    await stranger.getByRole('link', { name: '返回登录' }).click();
    await expect(stranger.getByRole('heading', { level: 1, name: '登录 Portico' })).toBeVisible();
  });

  it('says so in the page’s language when the person refuses the WeChat sign-in on their phone', async ({
    page,
    server,
    wechat,
  }) => {
    await page.goto(`${server.origin}/login`);
    await page.getByRole('button', { name: '使用微信登录' }).click();
    await scanOnPhone(page, wechat, (uuid) => wechat.refuse(uuid));
    await expect(page.getByRole('heading', { level: 1, name: '微信登录没有完成' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('你在微信取消了登录，没有登录任何账号。');
    expect(await seriousViolations(page), 'axe on the refused callback').toEqual([]);
    await page.getByRole('link', { name: '返回登录' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '登录 Portico' })).toBeVisible();
  });
});
