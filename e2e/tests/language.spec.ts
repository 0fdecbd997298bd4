import {
  letResendCooldownPass,
  nationalNumber,
  signInBySms,
  startSmsSignIn,
  typeCode,
} from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';

// The person's language: an app's `ui_locales` (for the visit), then the choice the person made (one
// choice for the web app, /sso and the phone's /app pages), then the browser's languages; every page
// titled by its own heading in that language.

const h1 = (page: import('@playwright/test').Page) => page.getByRole('heading', { level: 1 });

test.describe('in an English browser', () => {
  test.use({ locale: 'en-US' });

  test('every app speaks English before any choice, and titles its pages in English', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.origin}/login`);
    await expect(h1(page)).toHaveText('Sign in to Portico');
    await expect(page).toHaveTitle('Sign in to Portico');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.goto(`${server.origin}/terms-of-service`);
    await expect(page).toHaveTitle(/^Terms of service · Portico$/i);
    await page.goto(`${server.origin}/sso/sign-up`);
    await expect(h1(page)).toHaveText('Create your Portico account');
    await expect(page).toHaveTitle('Create your Portico account');
    // The passport's own page at /sso/login (no service to return to) puts English first too.
    await page.goto(`${server.origin}/sso/login`);
    await expect(h1(page)).toHaveText('Cannot sign in to this service');
    await page.goto(`${server.origin}/app/login`);
    await expect(h1(page)).toHaveText('Sign in to Portico');
  });

  test('a choice made in one app holds in the others; ui_locales holds for the visit only', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.origin}/login`);
    await page.getByRole('button', { name: '中文' }).click();
    await expect(h1(page)).toHaveText('登录 Portico');
    await expect(page).toHaveTitle('登录 Portico');

    await page.goto(`${server.origin}/sso/sign-up`);
    await expect(h1(page)).toHaveText('注册 Portico 账号');
    await page.goto(`${server.origin}/sso/login`);
    await expect(h1(page)).toHaveText('无法登录该服务');
    await page.goto(`${server.origin}/app/login`);
    await expect(h1(page)).toHaveText('登录 Portico');

    // An app asks for English on this visit: the page speaks it, the person's choice stays Chinese.
    await page.goto(`${server.origin}/sso/sign-up?ui_locales=en-GB`);
    await expect(h1(page)).toHaveText('Create your Portico account');
    await page.goto(`${server.origin}/login`);
    await expect(h1(page)).toHaveText('登录 Portico');
  });
});

test('a switch on the page reaches the passport: the code comes in the new language', async ({
  page,
  server,
  outbox,
}) => {
  await page.goto(`${server.origin}/login`);
  await expect(h1(page)).toHaveText('登录 Portico');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(h1(page)).toHaveText('Sign in to Portico');
  // No reload: the client was made in Chinese, the switch alone must reach the passport.
  const mobile = uniqueMobile();
  await page.getByRole('textbox', { name: 'Mobile number', exact: true }).fill(nationalNumber(mobile));
  const sent = Date.now();
  await page.getByRole('button', { name: 'Send code' }).click();
  await outbox.code(mobile, sent);
  const [message] = await outbox.messages(mobile);
  expect(message?.text).not.toMatch(/\p{Script=Han}/u);
});

test('the language a person chose follows them to a new device; a browser that chose keeps its own', async ({
  page,
  server,
  outbox,
  newContext,
}) => {
  const mobile = uniqueMobile();
  await signInBySms(page, server, outbox, { mobile });
  // Signed in, the person switches the header to English: the choice is saved on the account.
  const saved = page.waitForResponse((answer) => answer.url().includes('/web/user/update/language/'));
  await page.getByRole('button', { name: 'English' }).click();
  expect((await (await saved).json()).data).toEqual({ language: 'en' });
  await expect(h1(page)).toHaveText('Workbench');

  // A new phone browser in Chinese, never switched: after the sign-in it speaks English.
  const phone = await (await newContext()).newPage();
  letResendCooldownPass(server, mobile);
  const { form, code } = await startSmsSignIn(phone, server, outbox, mobile);
  await typeCode(form, code);
  await form.getByRole('button', { name: '登录', exact: true }).click();
  await expect(phone).toHaveURL(`${server.origin}/workbench`);
  await expect(h1(phone)).toHaveText('Workbench');
  await expect(phone.locator('html')).toHaveAttribute('lang', 'en');
  // The passport's own page at /sso/login follows the same choice.
  await phone.goto(`${server.origin}/sso/login`);
  await expect(h1(phone)).toHaveText('Cannot sign in to this service');

  // A shared computer someone set to Chinese stays Chinese when this person signs in there.
  const shared = await (await newContext()).newPage();
  await shared.goto(`${server.origin}/login`);
  await shared.getByRole('button', { name: '中文' }).click();
  letResendCooldownPass(server, mobile);
  await signInBySms(shared, server, outbox, { mobile });
  await expect(shared.locator('html')).toHaveAttribute('lang', 'zh-CN');
});
