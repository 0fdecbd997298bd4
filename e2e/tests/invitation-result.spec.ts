import type { Page } from '@playwright/test';
import { LANGUAGE_COOKIE } from '@portico/account-sdk/protocol';
import { registeredThroughApi } from '../support/account-api';
import { actFrom } from '../support/client-address';
import { createOrganisation } from '../support/organisation';
import { PASSWORD } from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';

// What a person sees once they joined: only that they joined. Accepting makes the new identity the
// session's, and the page must not then look at the spent invitation again and show its refusal
// ("already accepted") beside the success. In English, nothing on the screen is Chinese.

/** The manager creates an organisation on /org and invites `mobile` by SMS; resolves nothing. */
async function inviteByMobile(page: Page, origin: string, mobile: string) {
  await createOrganisation(page, origin);
  const invite = page.getByRole('region', { name: '邀请', exact: true });
  await invite.getByLabel('邀请方式').selectOption('mobile');
  await invite.getByLabel('邀请对象（手机号、邮箱或聊天账号）').fill(mobile);
  await invite.getByLabel('成员名称').fill('小王');
  await invite.getByRole('button', { name: '发送邀请' }).click();
  await expect(invite.getByRole('listitem').filter({ hasText: '小王' })).toBeVisible();
}

/** Counts the page's invitation checks, so a test can wait until none is on its way. */
function watchChecks(page: Page) {
  let started = 0;
  let settled = 0;
  const isCheck = (url: string) => url.includes('/invite/check/');
  page.on('request', (request) => {
    if (isCheck(request.url())) started += 1;
  });
  const done = (request: { url(): string }) => {
    if (isCheck(request.url())) settled += 1;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { idle: () => expect.poll(() => started - settled).toBe(0) };
}

const TEXT = {
  zh: {
    title: '加入组织',
    accept: '接受邀请',
    joined: '你已加入「示例公司」。',
    used: '邀请已被接受',
    sendCode: /^发送验证码到 /,
    code: '验证码',
    password: '设置密码',
    join: '注册并加入',
    account: /^账号/,
  },
  en: {
    title: 'Join an organisation',
    accept: 'Accept the invitation',
    joined: 'You joined 示例公司.',
    used: 'already been accepted',
    sendCode: /^Send a code to /,
    code: 'Code',
    password: 'Choose a password',
    join: 'Register and join',
    account: /^Account/,
  },
};

for (const language of ['zh', 'en'] as const)
  for (const who of ['member', 'newcomer'] as const)
    test(`joining shows only that the person joined (${language}, ${who})`, async ({
      page,
      newContext,
      servers,
      server,
      outbox,
    }) => {
      const t = TEXT[language];
      await registeredThroughApi(page, server, outbox, { mobile: uniqueMobile(), password: PASSWORD });
      const personContext = await newContext();
      await actFrom(personContext, server, servers.nextClientAddress(server));
      const person = await personContext.newPage();
      const mobile = uniqueMobile();
      // A member has an account and is signed in; a newcomer registers while accepting.
      if (who === 'member')
        await registeredThroughApi(person, server, outbox, { mobile, password: PASSWORD });
      await inviteByMobile(page, server.origin, mobile);

      // The person's chosen language, remembered before the link is opened.
      await personContext.addCookies([{ name: LANGUAGE_COOKIE, value: language, url: server.origin }]);
      const checks = watchChecks(person);
      await person.goto(await outbox.inviteLink(mobile));
      const screen = person.getByRole('region', { name: t.title });
      if (who === 'member') await screen.getByRole('button', { name: t.accept }).click();
      else {
        const after = Date.now();
        await screen.getByRole('button', { name: t.sendCode }).click();
        await screen.getByLabel(t.code).fill(await outbox.code(mobile, after));
        await screen.getByLabel(t.password).fill(PASSWORD);
        await screen.getByRole('button', { name: t.join }).click();
      }
      await expect(screen.getByRole('status')).toHaveText(t.joined);
      // The session's refresh after joining has landed (the header names the account), and no look at
      // the invitation is still on its way.
      await expect(person.getByRole('banner').getByRole('link', { name: t.account })).toBeVisible();
      await checks.idle();
      await expect(screen.getByRole('alert')).toHaveCount(0);
      await expect(screen).not.toContainText(t.used);
      if (language === 'en') {
        // The organisation's own name is the manager's words; everything else on the screen is English.
        const text = ((await person.locator('main').textContent()) ?? '').replaceAll('示例公司', '');
        expect(text).not.toMatch(/\p{Script=Han}/u);
      }
    });
