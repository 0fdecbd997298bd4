import { CodeType, ErrorCode } from '@portico/account-sdk/protocol';
import {
  expectWorkbench,
  nationalNumber,
  PASSWORD,
  panel,
  passSecondVerify,
  typeMobile,
} from '../support/person';
import { expect, test, uniqueMobile } from '../support/test';
import { postForm, registerByApi, seriousViolations } from '../support/web-pages';

// Strangers who keep asking for codes to a number slow its sign-in codes down for everyone who is not a
// device the account remembers: 60 s apart, then past 10 sends an hour twice as long per send, up to
// 30 minutes (apps/passport-server README, "Security: no lockout an attacker can impose"). The owner on
// a new device then waits with them for an SMS code, and the way past is the password, whose second
// verification has sends of its own. This test arms the real slowed cooldown on the real server and
// checks what the owner's sign-in page says and offers (docs/web.md, "A long wait for a code").
//
// The server: TEST_CLOCK=on, so the clock jumps each cooldown instead of the test waiting 40 minutes;
// TRUST_PROXY=true, so each stranger's send comes from an address of its own (`x-forwarded-for`), as an
// attacker's would (one address is refused past 10 sends an hour to a number); RISK_THRESHOLDS=relaxed,
// so the sends need no challenge (the challenge has tests of its own).
// The clock jumps 40 minutes: a server of the test's own, so no other test's clock moves with it.
test.use({
  serverOptions: { env: { TEST_CLOCK: 'on', TRUST_PROXY: 'true', RISK_THRESHOLDS: 'relaxed' } },
  ownServer: true,
});

const SEND_CODE = '/passport/web/send_code/';

test('strangers slow a number’s codes to 30 minutes: the owner on a new device is told how long, offered the password, and signs in with it', async ({
  newContext,
  page,
  server,
  outbox,
}) => {
  const mobile = uniqueMobile();
  // The owner's phone registers the account (one code, the first of the number's hour); the attacker is
  // a browser context of its own, neither the phone nor the owner's new laptop (`page`).
  const phone = await newContext();
  const strangers = await newContext();
  try {
    await registerByApi(await phone.newPage(), server.origin, outbox, mobile);
    const attacker = await strangers.newPage();
    const waits: number[] = [];
    let wait = 60;
    for (let send = 1; send <= 14; send++) {
      await postForm(attacker, server.origin, '/dev/clock', { advance_ms: wait * 1000 });
      const sent = await postForm(
        attacker,
        server.origin,
        SEND_CODE,
        { mobile, type: CodeType.mobileLogin },
        { 'x-forwarded-for': `203.0.113.${send}` },
      );
      wait = Number(sent.retry_time);
      waits.push(wait);
    }
    // The passport's rule, as the strangers meet it: the usual minute up to 10 sends in the hour, then
    // doubling, never over 30 minutes.
    expect(waits).toEqual([60, 60, 60, 60, 60, 60, 60, 60, 60, 120, 240, 480, 960, 1800]);
  } finally {
    await phone.close();
    await strangers.close();
  }

  // The owner, on a laptop the account does not know, asks for an SMS code.
  await page.goto(`${server.origin}/login`);
  const form = panel(page);
  await typeMobile(form, mobile);
  const refusal = page.waitForResponse((r) => new URL(r.url()).pathname === SEND_CODE && r.status() === 200);
  await form.getByRole('button', { name: '获取验证码' }).click();
  const { data } = (await (await refusal).json()) as { data: { error_code: number; retry_time: number } };
  expect(data.error_code).toBe(ErrorCode.codeCooldown);
  expect(data.retry_time).toBeGreaterThan(1740);

  // The wait counts down from retry_time on the button, in minutes; the notice says how long and why,
  // as an alert, and offers the page's ways that do not wait.
  await expect(form.getByRole('button', { name: '30 分钟后可重发' })).toBeDisabled();
  await expect(form.getByRole('alert')).toHaveText(
    '30 分钟后才能再获取验证码。这个手机号最近被请求了很多验证码。你可以改用密码或邮箱验证码登录。',
  );
  await expect(form.getByRole('status')).toHaveText('');
  await expect(form.getByRole('textbox', { name: '手机号', exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
  expect(await seriousViolations(page), 'axe on /login with the notice').toEqual([]);

  // By keyboard: from the code field the next stop is "用密码登录"; Enter switches to the password tab.
  await form.getByRole('textbox', { name: '验证码', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: '用密码登录' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: '密码', exact: true })).toBeFocused();
  await expect(page.getByRole('tab', { name: '密码', exact: true })).toHaveAttribute('aria-selected', 'true');

  // The password, then the second verification of a new device: its code comes at once, whatever the
  // strangers' cooldown on the number.
  const passwordForm = panel(page);
  await passwordForm.getByRole('textbox', { name: '手机号、邮箱或用户名' }).fill(nationalNumber(mobile));
  await passwordForm.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await passwordForm.getByRole('button', { name: '登录', exact: true }).click();
  await passSecondVerify(page, outbox, mobile);
  await expectWorkbench(page, server, { mobile });
});
