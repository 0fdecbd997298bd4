import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { openWorkbench, registeredOnWorkbench, registeredThroughApi } from '../support/account-api';
import { advanceServerClock } from '../support/clock';
import {
  expectWorkbench,
  letResendCooldownPass,
  PASSWORD,
  signInByPassword,
  submitPasswordSignIn,
  typeCode,
} from '../support/person';
import type { RunningServer } from '../support/server';
import { expect, PROMPTLY, test, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 17: the account centre in Chromium, as a person (zh, the app's default): the profile with its
// quota and an avatar that shows in the header; cancellation, signed out, abandoned on signing in
// again; and a cancellation that runs its course on the server's test clock (TEST_CLOCK=on, off unless
// a test server enables it), after which the mobile registers afresh.

test.use({
  serverOptions: { env: { TEST_CLOCK: 'on', PROFILE_QUOTAS: 'profile.name=1/2592000' } },
});

/** A real PNG (RGB, `size`×`size`, one colour), made with zlib as a camera or an editor would save it. */
function png(size = 24): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0)]);
  for (let x = 0; x < size; x++) row.set([0x22, 0x88, 0xcc], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** From the workbench to the profile page by its link. */
async function openProfile(page: Page, server: RunningServer) {
  await page.getByRole('link', { name: '编辑个人资料' }).click();
  await expect(page).toHaveURL(`${server.origin}/account/profile`);
  await expect(page.getByRole('heading', { level: 1, name: '个人资料' })).toBeVisible();
}

test.describe('the account centre (zh)', () => {
  // One group, run by one worker one test after another: the settings' server starts once in the
  // run, not once in each worker.
  test.describe.configure({ mode: 'default' });

  test('changes the name, uploads an avatar that shows in the header, and is told when the name may change again', async ({
    page,
    server,
    outbox,
  }) => {
    const mobile = uniqueMobile();
    await registeredOnWorkbench(page, server, outbox, { mobile, password: PASSWORD });
    await openProfile(page, server);
    // The generated name and the missing avatar are pointed out.
    await expect(page.getByRole('note')).toContainText('昵称和头像');

    const details = page.getByRole('form', { name: '基本信息' });
    await details.getByRole('textbox', { name: '昵称' }).fill('海边的灯塔');
    await details.getByRole('button', { name: '保存' }).click();
    await expect(details.getByRole('status')).toHaveText('资料已保存。');
    await expect(page.getByRole('link', { name: '账号：海边的灯塔' })).toBeVisible();
    await expect(details.getByTestId('name-quota')).toContainText('下次可修改时间');

    await page
      .getByLabel('上传新头像')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png() });
    await expect(page.getByRole('region', { name: '头像' }).getByRole('status')).toHaveText('头像已更新。');
    const headerAvatar = page.getByRole('link', { name: '账号：海边的灯塔' }).locator('img');
    await expect(headerAvatar).toHaveAttribute(
      'src',
      /^\/user\/web\/download\/image\/\?key=[A-Za-z0-9_-]{32}$/,
    );
    await expect
      .poll(
        () => headerAvatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        PROMPTLY,
      )
      .toBe(24);
    await expect(page.getByRole('note')).toHaveCount(0);

    // Past the quota (1 change per 30 days here): told when it can change again, and the name stays.
    await details.getByRole('textbox', { name: '昵称' }).fill('另一个名字');
    await details.getByRole('button', { name: '保存' }).click();
    await expect(details.getByRole('alert')).toHaveText(
      /^修改次数已用完，\d{4}年\d{1,2}月\d{1,2}日 后可再次修改。$/,
    );
    await page.reload();
    await expect(page.getByRole('link', { name: '账号：海边的灯塔' })).toBeVisible();

    // Both account pages pass axe (labels, contrast, landmarks) once settled.
    await expect(page.getByRole('form', { name: '基本信息' })).toBeVisible();
    expect(await seriousViolations(page), 'axe on /account/profile').toEqual([]);
    await page.goto(`${server.origin}/account/cancel`);
    await expect(page.getByRole('heading', { level: 2, name: '验证身份' })).toBeVisible();
    expect(await seriousViolations(page), 'axe on /account/cancel').toEqual([]);
  });

  test('requests cancellation, is signed out, signs in during the cooling-off period and abandons it', async ({
    page,
    server,
    outbox,
  }) => {
    const mobile = uniqueMobile();
    await registeredThroughApi(page, server, outbox, { mobile, password: PASSWORD });
    await page.goto(`${server.origin}/account/cancel`);
    await expect(page.getByRole('heading', { level: 1, name: '注销账号' })).toBeVisible();
    await expect(page.getByRole('region', { name: '注销后将删除' })).toContainText('个人资料');
    await expect(page.getByText('15 天冷静期')).toBeVisible();

    await page.getByRole('radio', { name: '账号密码' }).check();
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '验证', exact: true }).click();
    await page.getByRole('button', { name: '确认注销账号' }).click();
    await expect(page.getByRole('status').filter({ hasText: '已提交注销申请' })).toBeVisible();
    // Signed out: the workbench sends the browser to login.
    await page.goto(`${server.origin}/workbench`);
    await expect(page).toHaveURL(`${server.origin}/login?next=/workbench`);

    await signInByPassword(page, server, { account: mobile, password: PASSWORD });
    const banner = page.getByRole('region', { name: '注销账号' });
    await expect(banner).toContainText('你的账号将于');
    await banner.getByRole('button', { name: '撤销注销，保留账号' }).click();
    await expect(page.getByRole('status').filter({ hasText: '已撤销注销' })).toBeVisible();
    await page.reload();
    await expectWorkbench(page, server, { mobile });
    await expect(page.getByRole('region', { name: '注销账号' })).toHaveCount(0);
  });

  test.describe('on a server of its own (the clock moves 16 days, for every test on its server)', () => {
    test.use({ ownServer: true });

    test('a second account completes cancellation once the period has passed, and its mobile registers afresh', async ({
      page,
      server,
      outbox,
    }) => {
      const mobile = uniqueMobile();
      await registeredThroughApi(page, server, outbox, { mobile, password: PASSWORD });
      await page.goto(`${server.origin}/account/cancel`);
      // Verified by an SMS code to the account's own number (the page never sees it unmasked).
      await expect(page.getByRole('radio', { name: /^短信验证码/ })).toBeChecked();
      letResendCooldownPass(server, mobile);
      const sentAt = Date.now();
      await page.getByRole('button', { name: '发送验证码' }).click();
      await typeCode(page.locator('main'), await outbox.code(mobile, sentAt));
      await page.getByRole('button', { name: '验证', exact: true }).click();
      await page.getByRole('button', { name: '确认注销账号' }).click();
      await expect(page.getByRole('status').filter({ hasText: '已提交注销申请' })).toBeVisible();

      await advanceServerClock(page, 16 * 86_400_000);
      // The data is gone: the number and password no longer sign in.
      await page.goto(`${server.origin}/login`);
      const form = await submitPasswordSignIn(page, server, { account: mobile, password: PASSWORD });
      await expect(form.getByRole('alert')).toHaveText('账号或密码错误');
      await expect(page).toHaveURL(/\/login/);

      // The mobile registers afresh: a new account with a generated name.
      await registeredThroughApi(page, server, outbox, { mobile, password: PASSWORD });
      await openWorkbench(page, server, { mobile });
      await expect(page.getByRole('link', { name: /^账号：user\d{9}$/ })).toBeVisible();
    });
  });
});
