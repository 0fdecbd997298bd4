import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { REDIRECT_SPELLINGS } from '../../packages/account-sdk/test/protocol/redirect-spellings';
import { signInBySms } from '../support/person';
import { PROMPTLY, test, uniqueMobile } from '../support/test';
import {
  hasChineseFont,
  registerByApi,
  SCREENSHOTS_DIR,
  seriousViolations,
  VIEWPORTS,
} from '../support/web-pages';

// Issue 5: the web app (apps/web) as the passport server serves it, page by page, in a real browser.

const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

/** Where the browser is, without the origin: '/login?next=/workbench'. */
const where = (page: Page, origin: string) => {
  const url = new URL(page.url());
  expect(url.origin).toBe(origin);
  return `${url.pathname}${decodeURIComponent(url.search)}`;
};

test('every route of the table renders its page', async ({ page, server, outbox }) => {
  const { origin } = server;
  // Each path with its heading and one more thing only that page has (a section, a tab, a control).
  const pages: [path: string, heading: string, content: Locator][] = [
    ['/', '给你的产品一套完整的账号登录', page.getByRole('link', { name: '免费注册试用' })],
    ['/home', 'Portico 是什么', page.getByRole('heading', { name: '一次登录是怎样完成的' })],
    ['/community', '社区', page.getByRole('heading', { name: '在哪里提问' })],
    ['/extension', '把 Portico 接入你的产品', page.getByRole('heading', { name: '2. 安装 SDK' })],
    ['/login', '登录 Portico', page.getByRole('tab', { name: '短信验证码', selected: true })],
    ['/sign-up', '注册 Portico 账号', page.getByRole('checkbox', { name: /我已阅读并同意/ })],
    ['/reset-password', '重置密码', page.getByRole('tab', { name: '通过手机号', selected: true })],
    ['/legal/open-source-notice', '开源许可声明', page.getByRole('table')],
    ['/privacy-policy', '隐私政策', page.getByRole('heading', { name: '我们收集哪些信息' })],
    ['/terms-of-service', '服务条款', page.getByRole('heading', { name: '使用规则' })],
    // A version that does not exist: the app's 404 page (the server still serves the app there).
    ['/terms-of-service/1999-01-01', '页面不存在', page.getByRole('link', { name: '返回首页' })],
  ];
  for (const [path, heading, content] of pages) {
    const response = await page.goto(`${origin}${path}`);
    expect(response?.status(), path).toBe(200);
    await expect(h1(page), path).toHaveText(heading);
    await expect(content, path).toBeVisible();
  }

  // The notice lists the packages really in the bundle, from the build.
  await page.goto(`${origin}/legal/open-source-notice`);
  const packages = page.getByRole('table').getByRole('rowheader');
  for (const name of ['react', 'react-dom', 'react-router', '@tanstack/react-query', 'ky'])
    await expect(packages.filter({ hasText: new RegExp(`^${name}$`) }), name).toHaveCount(1);
  await expect(packages.filter({ hasText: /^@portico\/web$/ })).toHaveCount(0);

  // A real version of the privacy policy, by the id the latest version's page shows.
  await page.goto(`${origin}/privacy-policy`);
  const versionLine = await page.getByText(/^版本 \S+ ·/).textContent();
  const id = /^版本 (\S+)/.exec(versionLine ?? '')?.[1] as string;
  expect(id).toMatch(/^[A-Za-z0-9._-]+$/);
  await page.goto(`${origin}/privacy-policy/${id}`);
  await expect(h1(page)).toHaveText('隐私政策');
  await expect(page.getByText(`版本 ${id} ·`)).toBeVisible();
  await expect(page.getByRole('heading', { name: '我们收集哪些信息' })).toBeVisible();

  // An unknown app path: the server only serves index.html for the table's paths, so the not-found
  // page is met by navigating inside the app (history, as the back button does).
  await page.evaluate(() => {
    history.pushState(null, '', '/no-such-page');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(h1(page)).toHaveText('页面不存在');
  await expect(page.getByRole('link', { name: '返回首页' })).toBeVisible();

  // Signed in (an account made through the HTTP API): the workbench shows the account.
  await registerByApi(page, origin, outbox, uniqueMobile());
  await page.goto(`${origin}/workbench`);
  await expect(h1(page)).toHaveText('工作台');
  await expect(page.getByRole('heading', { name: '登录方式与安全' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '修改密码' })).toBeVisible();
  expect(where(page, origin)).toBe('/workbench');
});

test('a page load outside the app gets the server’s plain-text 404', async ({ page, server }) => {
  for (const path of ['/no-such-file.txt', '/no-such-page', '/privacy-policy/a/b']) {
    const response = await page.goto(`${server.origin}${path}`);
    expect(response?.status(), path).toBe(404);
    expect(response?.headers()['content-type'], path).toMatch(/^text\/plain/);
    await expect(page.locator('body'), path).toHaveText(/Not Found/);
  }
});

test('a signed-out visit to the workbench goes to login and comes back after sign-in', async ({
  page,
  server,
  outbox,
}) => {
  const { origin } = server;
  await page.goto(`${origin}/workbench`);
  await expect(h1(page)).toHaveText('登录 Portico');
  expect(where(page, origin)).toBe('/login?next=/workbench');

  await signInBySms(page, server, outbox, { mobile: uniqueMobile() });
  await expect(h1(page)).toHaveText('工作台');
  expect(where(page, origin)).toBe('/workbench');
});

test('next never sends the browser off the site', async ({ page, server, outbox }) => {
  const { origin } = server;
  // Every spelling the one redirect rule refuses or sends off this origin (dot segments such as
  // `/.//evil.example` included), from the protocol's table.
  const evil = REDIRECT_SPELLINGS.filter(([, rule]) => !rule?.startsWith('/')).map(([next]) => next);
  // After a sign-in on the login page…
  await page.goto(`${origin}/login?next=${encodeURIComponent(evil[0] as string)}`);
  await signInBySms(page, server, outbox, { mobile: uniqueMobile() });
  await expect(h1(page)).toHaveText('工作台');
  expect(where(page, origin)).toBe('/workbench');
  // …and for a signed-in visit to login (every variant) or sign-up, which send the browser on at once.
  // A page load for sign-up and for a spread of the variants (one in twelve, across the table's kinds):
  // the server serves the app for each, and the route's loader sends the browser on from a cold start.
  const loads = [
    ...evil.filter((_, i) => i % 12 === 0).map((next) => ['/login', next]),
    ['/sign-up', evil[1]],
    ['/sign-up', evil[4]],
  ];
  for (const [entry, next] of loads as [string, string][]) {
    await page.goto(`${origin}${entry}?next=${encodeURIComponent(next)}`);
    await expect(h1(page), `${entry}?next=${next}`).toHaveText('工作台');
    expect(where(page, origin), `${entry}?next=${next}`).toBe('/workbench');
  }
  // Every variant through the app's router in the loaded page (history and popstate, as the back
  // button does): the same loader and rule run as on a page load, without loading the bundle 70 times.
  // The address is /login?next=… until the loader sends the browser on, so reaching /workbench again
  // is the redirect; one that left the origin fails `where`. First a safe `next`, which the loader
  // follows: the visits below do reach the loader, and the workbench is its refusal.
  const visitInApp = (path: string) =>
    page.evaluate((to) => {
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  await visitInApp(`/login?next=${encodeURIComponent('/community')}`);
  await expect(h1(page)).toHaveText('社区');
  expect(where(page, origin)).toBe('/community');
  for (const next of evil) {
    const visit = `/login?next=${encodeURIComponent(next)}`;
    await visitInApp(visit);
    await expect.poll(() => where(page, origin), { message: visit, ...PROMPTLY }).toBe('/workbench');
    await expect(h1(page), visit).toHaveText('工作台');
  }
  // A safe `next` is still followed.
  await page.goto(`${origin}/login?next=${encodeURIComponent('/community')}`);
  await expect(h1(page)).toHaveText('社区');
  expect(where(page, origin)).toBe('/community');
});

test('the language is zh by default, switches to English and is remembered', async ({ page, server }) => {
  await page.goto(`${server.origin}/login`);
  await expect(h1(page)).toHaveText('登录 Portico');
  await expect(page.locator('html')).toHaveAttribute('lang', /^zh/);
  await expect(page.getByRole('button', { name: '中文' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('button', { name: 'English' }).click();
  await expect(h1(page)).toHaveText('Sign in to Portico');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
  // account-react's form parts follow.
  await expect(page.getByRole('textbox', { name: 'Mobile number' })).toBeVisible();

  await page.reload();
  await expect(h1(page)).toHaveText('Sign in to Portico');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // Other pages too.
  await page.goto(`${server.origin}/`);
  await expect(h1(page)).toHaveText('Complete account sign-in for your product');

  await page.getByRole('button', { name: '中文' }).click();
  await expect(h1(page)).toHaveText('给你的产品一套完整的账号登录');
  await expect(page.locator('html')).toHaveAttribute('lang', /^zh/);
});

const SCREENSHOT_MOBILES: Record<keyof typeof VIEWPORTS, string> = {
  xs: '+8613900001234',
  lg: '+8613900004321',
};

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`axe finds no serious or critical violation, and screenshots, at ${size} (${viewport.width}×${viewport.height})`, async ({
    page,
    server,
    outbox,
  }) => {
    const { origin } = server;
    const screenshots = hasChineseFont();
    if (screenshots) mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    else
      test.info().annotations.push({
        type: 'screenshots skipped',
        description: 'no Chinese font: apt-get install -y fonts-noto-cjk',
      });
    await page.setViewportSize(viewport);
    /** Opens a page, waits until it settled, runs axe and takes its screenshot. */
    const check = async (path: string, heading: string, shot?: string, ready?: string) => {
      await page.goto(`${origin}${path}`);
      await expect(h1(page), path).toHaveText(heading);
      if (ready) await expect(page.getByText(ready), path).toBeVisible();
      // Everything the page loads has settled: no spinner, no route progress.
      await expect(page.getByRole('status').filter({ hasText: /正在加载/ })).toHaveCount(0);
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      expect(await seriousViolations(page), `axe on ${path} at ${size}`).toEqual([]);
      if (shot && screenshots) {
        await page.screenshot({
          path: join(SCREENSHOTS_DIR, `${shot}-${size}.png`),
          fullPage: true,
          animations: 'disabled',
        });
      }
    };
    /** The same form with its errors on screen (submitted empty). */
    const checkErrors = async (path: string, submit: RegExp) => {
      await page.getByRole('button', { name: submit }).click();
      await expect(page.getByRole('alert').first(), path).toBeVisible();
      expect(await seriousViolations(page), `axe on ${path} with errors at ${size}`).toEqual([]);
    };
    await check('/login', '登录 Portico', 'login');
    await checkErrors('/login', /^登录$/);
    await check('/sign-up', '注册 Portico 账号', 'sign-up');
    await checkErrors('/sign-up', /^注册并登录$/);
    await check('/reset-password', '重置密码');
    await checkErrors('/reset-password', /^重置密码$/);
    // A fixed number per viewport, so each workbench screenshot shows the same account every run; one
    // per viewport, since both tests may run on one worker's server, where a number registers once.
    await registerByApi(page, origin, outbox, SCREENSHOT_MOBILES[size as keyof typeof VIEWPORTS]);
    await check('/workbench', '工作台', 'workbench', '首次使用');
  });
}
