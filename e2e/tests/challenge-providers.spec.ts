import type { Page, Request } from '@playwright/test';
import {
  type CaptchaProviderPeer,
  GOOD,
  PEER_PATHS,
  SECRETS,
  startCaptchaProviderPeer,
} from '../support/captcha-provider';
import { overlay, sendUpToThreshold, solveAsPerson, watchPuzzles } from '../support/challenge';
import { callResult, formOf, openFixture, requestsTo, startCall } from '../support/fixture-page';
import { expectWorkbench, startSmsSignIn, typeCode, wrongCodeFor } from '../support/person';
import type { ServerOptions } from '../support/server';
import { test as base, expect, PROMPTLY, uniqueMobile } from '../support/test';
import { seriousViolations } from '../support/web-pages';

// Issue 10, item 4: a third-party challenge provider in the page. The server is configured with
// Cloudflare Turnstile (or hCaptcha) whose widget script and siteverify both live on a loopback peer
// speaking the provider's documented shapes (apps/passport-server/test/support/captcha-provider-peer.ts): the
// script implements `turnstile.render(el, {sitekey, callback, 'error-callback', language})` over one
// button, and siteverify accepts exactly the token that button hands over.

const SITE_KEY = '1x00000000000000000000AA';
const HCAPTCHA_SITE_KEY = '10000000-ffff-ffff-ffff-000000000001';

const test = base.extend<
  {
    provider: 'turnstile' | 'hcaptcha';
    providerMode: 'behind' | 'instead';
    scriptPath: string;
    /** The challenge kinds the server picks from (default: all). */
    kinds: string[] | undefined;
  },
  // One peer per worker, as the passport is one per worker (per settings): its port is in the settings.
  { peer: CaptchaProviderPeer }
>({
  kinds: [undefined, { option: true }],
  provider: ['turnstile', { option: true }],
  providerMode: ['instead', { option: true }],
  scriptPath: [`${PEER_PATHS.turnstileScript}?render=explicit`, { option: true }],
  peer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const peer = await startCaptchaProviderPeer();
      try {
        await use(peer);
      } finally {
        await peer.close();
      }
    },
    { scope: 'worker' },
  ],
  serverOptions: async ({ peer, provider, providerMode, scriptPath, kinds }, use) => {
    const options: ServerOptions = {
      ...(kinds ? { challengeKinds: kinds } : {}),
      env:
        provider === 'turnstile'
          ? {
              CAPTCHA_PROVIDER: 'turnstile',
              CAPTCHA_PROVIDER_MODE: providerMode,
              TURNSTILE_SITE_KEY: SITE_KEY,
              TURNSTILE_SECRET: SECRETS.turnstile,
              TURNSTILE_VERIFY_URL: `${peer.origin}${PEER_PATHS.turnstileVerify}`,
              TURNSTILE_SCRIPT_URL: `${peer.origin}${scriptPath}`,
            }
          : {
              CAPTCHA_PROVIDER: 'hcaptcha',
              CAPTCHA_PROVIDER_MODE: providerMode,
              HCAPTCHA_SITE_KEY,
              HCAPTCHA_SECRET: SECRETS.hcaptcha,
              HCAPTCHA_VERIFY_URL: `${peer.origin}${PEER_PATHS.hcaptchaVerify}`,
              HCAPTCHA_SCRIPT_URL: `${peer.origin}${PEER_PATHS.hcaptchaScript}?render=explicit`,
            },
    };
    await use(options);
  },
});

// The fixture page is fulfilled by page.route, so Chromium counts it as a public page, and Local
// Network Access refuses its request for the peer's script on 127.0.0.1 (a real deployment loads the
// widget from the provider's public host). The person grants that access, as Chromium would ask them to.
test.beforeEach(async ({ context, peer }) => {
  await context.grantPermissions(['local-network-access']);
  // The shared peer as it started: up, the good widget token, and what it sees is this test's alone.
  peer.seen.length = 0;
  peer.down = false;
  peer.widgetToken = GOOD;
});

/** The fixture page with the SDK's challenge plugin, five sends in, and the sixth one challenged. */
async function challengedSend(page: Page, origin: string, language = 'zh'): Promise<void> {
  await openFixture(page, origin);
  await page.evaluate((l) => window.e2e.setup({ language: l }), language);
  await sendUpToThreshold(page);
  await startCall(page, 'sixth', 'sendMobileCode', { mobile: uniqueMobile(), type: 24 });
  await expect(overlay(page)).toBeVisible();
}

const siteverifies = (peer: CaptchaProviderPeer) =>
  peer.seen.filter((request) => request.path === PEER_PATHS.turnstileVerify);

test.describe('Turnstile instead of our puzzles', () => {
  test('the person completes the widget and the guarded call goes through', async ({
    page,
    server,
    peer,
  }) => {
    const verifies = await requestsTo(page, '/vc/verify');
    await challengedSend(page, server.origin);
    const widget = overlay(page).getByRole('group', { name: '第三方安全验证' }).getByRole('button', {
      name: '确认您是真人',
    });
    await expect(widget).toBeVisible();
    // Rendered explicitly with the server's site key, in the page's language.
    await expect(widget).toHaveAttribute('data-sitekey', SITE_KEY);
    await expect(widget).toHaveAttribute('data-language', 'zh-cn');
    await expect(overlay(page).getByText('请完成下方的安全验证，完成后会自动继续。')).toBeVisible();
    expect(await seriousViolations(page), 'axe on the overlay with the widget').toEqual([]);

    await widget.click();
    expect(await callResult(page, 'sixth')).toMatchObject({ ok: true });
    await expect(overlay(page)).toHaveCount(0);
    expect(verifies.map((request) => formOf(request).get('provider_token'))).toEqual([GOOD]);
    expect(siteverifies(peer).map((request) => request.form.get('response'))).toEqual([GOOD]);
  });
});

// A refusal with tries left keeps the round; on the last try (whirl has one) the next round is drawn.
for (const [kind, when] of [
  ['text', 'tries left'],
  ['whirl', 'the last try'],
] as const) {
  test.describe(`Turnstile instead of our puzzles, a ${kind} round`, () => {
    test.use({ kinds: [kind] });

    test(`a refused token leaves the person at the challenge with a message, and the widget asks again (${when})`, async ({
      page,
      server,
      peer,
    }) => {
      peer.widgetToken = 'XXXX.DUMMY.TOKEN.FORGED';
      await challengedSend(page, server.origin);
      const widget = overlay(page).getByRole('button', { name: '确认您是真人' });
      await widget.click();
      await expect(overlay(page).getByRole('status')).toHaveText('第三方安全验证未通过，请重新完成');
      await expect(overlay(page)).toBeVisible();
      // The spent token is gone: the widget was reset for a fresh one.
      await expect(widget).toBeEnabled();
      const settled = await page.evaluate(() =>
        Promise.race([
          window.e2e.result('sixth'),
          new Promise((resolve) => setTimeout(() => resolve('pending'), 300)),
        ]),
      );
      expect(settled).toBe('pending');
      // Asked once: the spent token is never sent again.
      expect(siteverifies(peer).map((request) => request.form.get('response'))).toEqual([peer.widgetToken]);
    });
  });
}

test.describe('Turnstile behind our puzzles', () => {
  test.use({ providerMode: 'behind' });

  test('the picture solved first waits for the widget; both done, the call goes through with both', async ({
    page,
    server,
    peer,
  }) => {
    const puzzles = watchPuzzles(page);
    const verifies = await requestsTo(page, '/vc/verify');
    await challengedSend(page, server.origin);
    const puzzle = await puzzles.next();
    expect(puzzle).toMatchObject({ provider: { name: 'turnstile', site_key: SITE_KEY, mode: 'behind' } });
    const widget = overlay(page).getByRole('button', { name: '确认您是真人' });
    await expect(widget).toBeVisible();

    await solveAsPerson(page, server.origin, puzzle);
    await expect(overlay(page).getByRole('status')).toHaveText('请先完成下方的第三方安全验证');
    expect(verifies).toHaveLength(0);
    await widget.click();
    expect(await callResult(page, 'sixth')).toMatchObject({ ok: true });
    expect(verifies).toHaveLength(1);
    const sent = formOf(verifies[0] as Request);
    expect(sent.get('provider_token')).toBe(GOOD);
    expect(sent.get('pow')).toBeTruthy();
    expect(siteverifies(peer)).toHaveLength(1);
  });
});

test.describe('Turnstile behind our puzzles, its script unreachable', () => {
  test.use({ providerMode: 'behind', scriptPath: '/turnstile/v0/missing.js' });

  test('says so and falls back to the picture puzzle, which passes on its own', async ({
    page,
    server,
    peer,
  }) => {
    const puzzles = watchPuzzles(page);
    await challengedSend(page, server.origin);
    await expect(overlay(page).getByRole('status')).toHaveText('第三方安全验证无法加载，已改用图片验证');
    await expect(overlay(page).getByRole('group', { name: '第三方安全验证' })).toBeHidden();
    // The first round named the provider; the fall-back round does not.
    await expect.poll(() => puzzles.all.length, PROMPTLY).toBe(2);
    expect(puzzles.all.map((puzzle) => 'provider' in puzzle)).toEqual([true, false]);
    await solveAsPerson(page, server.origin, await puzzles.next());
    expect(await callResult(page, 'sixth')).toMatchObject({ ok: true });
    expect(siteverifies(peer)).toEqual([]);
  });
});

test.describe('hCaptcha instead of our puzzles, in English', () => {
  test.use({ provider: 'hcaptcha' });

  test('the widget speaks en (hl), and its token passes hCaptcha’s siteverify', async ({
    page,
    server,
    peer,
  }) => {
    await challengedSend(page, server.origin, 'en');
    const widget = overlay(page)
      .getByRole('group', { name: 'Third-party security check' })
      .getByRole('button', { name: 'Verify you are human' });
    await expect(widget).toHaveAttribute('data-sitekey', HCAPTCHA_SITE_KEY);
    await expect(widget).toHaveAttribute('data-language', 'en');
    await expect(
      overlay(page).getByText('Complete the check below; it continues by itself when done.'),
    ).toBeVisible();
    await widget.click();
    expect(await callResult(page, 'sixth')).toMatchObject({ ok: true });
    const asked = peer.seen.filter((request) => request.path === PEER_PATHS.hcaptchaVerify);
    expect(asked.map((request) => [request.form.get('response'), request.form.get('sitekey')])).toEqual([
      [GOOD, HCAPTCHA_SITE_KEY],
    ]);
  });
});

test.describe('in the web app, under the pages’ content security policy', () => {
  test('the widget’s script loads from the provider’s origin the policy names, and the sign-in goes through', async ({
    page,
    server,
    outbox,
    peer,
  }) => {
    const policies: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'document')
        policies.push(response.headers()['content-security-policy'] ?? '');
    });
    const mobile = uniqueMobile();
    const { form, code } = await startSmsSignIn(page, server, outbox, mobile);
    expect(policies.at(-1)).toContain(`script-src 'self' ${peer.origin} https://challenges.cloudflare.com;`);
    const submit = form.getByRole('button', { name: '登录', exact: true });
    for (let i = 0; i < 3; i++) {
      await typeCode(form, wrongCodeFor(code));
      const answered = page.waitForResponse((response) =>
        response.url().includes('/passport/web/sms_login/'),
      );
      await submit.click();
      await answered;
      await expect(submit).toBeEnabled();
    }
    await typeCode(form, code);
    await submit.click();
    const widget = overlay(page).getByRole('button', { name: '确认您是真人' });
    await widget.click();
    await expectWorkbench(page, server, { mobile });
    expect(siteverifies(peer).map((request) => request.form.get('response'))).toEqual([GOOD]);
  });
});
