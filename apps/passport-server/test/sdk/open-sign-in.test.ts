import {
  accountInfo,
  checkOpenQrcode,
  confirmQrcode,
  getOpenQrcode,
  openAccountLogin,
  openSmsLogin,
  scanQrcode,
  sendMobileCode,
  sendOpenCode,
  setPassword,
  smsLogin,
  webLogin,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, paths } from '../../src/protocol';
import { GOOD_PASSWORD, passCooldown } from '../support/flows';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * Signing in inside the authorization page through the open family's calls (docs/open-authorization.md),
 * end to end through the real SDK: the same sign-ins as the web family's, in the auth envelope
 * (`status_code` 0), setting the same Portico session. The third-party exchange is in third-party.test.
 */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

const signedInName = async (client: ReturnType<ReturnType<SdkServer['sdkBrowser']>['client']>) =>
  (await accountInfo<{ user_id: string }>(client)).user_id;

describe('open sign-in: SMS code', () => {
  it('sends a purpose-27 code and signs a new number up and in, in the auth envelope', async () => {
    const browser = server.sdkBrowser();
    const client = browser.client();
    const mobile = freshMobile();
    const sent = await sendOpenCode(client, { mobile });
    expect(sent.retry_time).toBeGreaterThanOrEqual(0);
    const account = await openSmsLogin<{ user_id: string }>(client, {
      mobile,
      code: await server.codeFor(mobile),
    });
    expect(await signedInName(client)).toBe(account.user_id);
    // The browser's first POST has no CSRF token yet: 403, renewed and resent by the SDK.
    const answers = browser.exchanges.filter((e) => e.path.startsWith('/passport/open/') && e.status !== 403);
    expect(answers.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      `POST ${paths.open.sendCode} 200`,
      `POST ${paths.open.webSms} 200`,
    ]);
  });

  it('refuses a code sent for another purpose, and a wrong code, without signing in', async () => {
    const client = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
    const loginCode = await server.codeFor(mobile);
    // No open-auth code was sent to the number: the login code is not one (a code serves its purpose only).
    await rejectsWith(openSmsLogin(client, { mobile, code: loginCode }), 'codeExpired');
    await passCooldown();
    await sendOpenCode(client, { mobile });
    const openCode = await server.codeFor(mobile);
    await rejectsWith(
      openSmsLogin(client, { mobile, code: openCode === '000000' ? '111111' : '000000' }),
      'codeWrong',
    );
    await rejectsWith(accountInfo(client), 'notLoggedIn');
  });
});

describe('open sign-in: password', () => {
  it('signs in with the right password and refuses a wrong one as wrongCredentials', async () => {
    const setup = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(setup, { mobile, type: CodeType.mobileLogin });
    await smsLogin(setup, { mobile, code: await server.codeFor(mobile) });
    await setPassword(setup, { password: GOOD_PASSWORD });

    const elsewhere = server.sdkBrowser().client();
    await rejectsWith(
      openAccountLogin(elsewhere, { mobile, password: `${GOOD_PASSWORD}!` }),
      'wrongCredentials',
    );
    await rejectsWith(accountInfo(elsewhere), 'notLoggedIn');
    const account = await openAccountLogin<{ user_id: string }>(elsewhere, {
      mobile,
      password: GOOD_PASSWORD,
    });
    expect(await signedInName(elsewhere)).toBe(account.user_id);
  });
});

describe('open sign-in: QR code', () => {
  it('gets and polls a code through the open family; a scan and a matched number sign the page in', async () => {
    const phone = server.sdkBrowser().client();
    const mobile = freshMobile();
    await sendMobileCode(phone, { mobile, type: CodeType.mobileLogin });
    const owner = await smsLogin<{ user_id: string }>(phone, { mobile, code: await server.codeFor(mobile) });

    const page = server.sdkBrowser().client();
    const code = await getOpenQrcode(page, { next: '/authorization?interaction=abc' });
    expect(code.token).toEqual(expect.any(String));
    expect((await checkOpenQrcode(page, { token: code.token })).status).toBe('new');
    await scanQrcode(phone, { token: code.token });
    const shown = await checkOpenQrcode(page, { token: code.token });
    expect(shown.status).toBe('scanned');
    await confirmQrcode(phone, { token: code.token, number: shown.number });
    expect((await checkOpenQrcode(page, { token: code.token })).status).toBe('confirmed');
    await webLogin(page, { token: code.token });
    expect(await signedInName(page)).toBe(owner.user_id);
  });

  it('does not let another browser poll the page’s code', async () => {
    const page = server.sdkBrowser().client();
    const code = await getOpenQrcode(page);
    await rejectsWith(checkOpenQrcode(server.sdkBrowser().client(), { token: code.token }), 'qrOtherBrowser');
  });
});
