import {
  accountInfo,
  checkQrcode,
  confirmQrcode,
  confirmQrcodeByTicket,
  forgetDevice,
  getQrcode,
  legacyCheckQrcode,
  legacyGetQrcode,
  listDevices,
  type QrcodeData,
  scanQrcode,
  sendMobileCode,
  smsLogin,
  verifyScanQrcode,
  webLogin,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType } from '../../src/protocol';
import {
  rejection,
  rejectsWith,
  type SdkBrowser,
  type SdkServer,
  startSdkServer,
} from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * QR sign-in through the real SDK (flows/qr-login, docs/qr-login.md): a desktop browser asks for a
 * code, a signed-in phone scans it and confirms the number the desktop shows, the desktop redeems it.
 * Every state and refusal, the two-step variant, the sso and legacy rows. The clock is the server's
 * own (`now`), moved past a code's 120 s by the expiry tests instead of waiting.
 */

let server: SdkServer;
let skew = 0;
beforeAll(async () => {
  server = await startSdkServer(
    { secondVerify: true },
    { now: () => Date.now() + skew, limits: { sendCooldownMs: 5 } },
  );
});
afterAll(async () => server?.close());

/** A phone signed in by SMS (so its browser is a remembered device of the account). */
async function signedInPhone() {
  const browser = server.sdkBrowser();
  const client = browser.client();
  const mobile = freshMobile();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  const account = await smsLogin<{ user_id: string }>(client, { mobile, code: await server.codeFor(mobile) });
  return { browser, client, mobile, userId: account.user_id };
}

/** A desktop browser with a new code. */
async function desktopWithCode(next?: string) {
  const browser = server.sdkBrowser();
  const client = browser.client();
  const code = await getQrcode(client, next === undefined ? {} : { next });
  return { browser, client, code };
}

const sessionsOf = async (userId: string) =>
  (await server.app.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute())
    .length;

/** Scans and confirms with the number the desktop shows. */
async function scanAndConfirm(
  phone: Awaited<ReturnType<typeof signedInPhone>>,
  desktop: { client: ReturnType<SdkBrowser['client']>; code: QrcodeData },
) {
  await scanQrcode(phone.client, { token: desktop.code.token });
  const shown = await checkQrcode(desktop.client, { token: desktop.code.token });
  return confirmQrcode(phone.client, { token: desktop.code.token, number: shown.number });
}

describe('QR sign-in: the happy path', () => {
  it('signs the creating browser in after a scan and a matched number, once', async () => {
    const phone = await signedInPhone();
    const desktop = await desktopWithCode('/workbench');
    const { token } = desktop.code;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(desktop.code.expires_in).toBe(120);
    expect(desktop.code.qrcode_index_url).toBe(`http://localhost:3000/app/qr?token=${token}`);
    // The binding cookie is HttpOnly: the page's script never sees it.
    expect(desktop.browser.cookies.get('passport_qr')?.httpOnly).toBe(true);

    expect(await checkQrcode(desktop.client, { token })).toEqual({ status: 'new', expires_in: 120 });

    const scan = await scanQrcode(phone.client, { token });
    expect(scan.status).toBe('scanned');
    expect(scan.browser).toMatch(/ on /);
    const [a, b] = desktop.browser.address.split('.');
    expect(scan.place.kind).toBe('private');
    expect(scan.place.network).toMatch(new RegExp(`^${a}\\.${b}\\.\\d+\\.0/24$`));
    expect(Math.abs(scan.created_at - Date.now())).toBeLessThan(60_000);
    expect(scan.choices).toHaveLength(3);
    expect(new Set(scan.choices).size).toBe(3);
    expect(scan.need_second_factor).toBe(false);

    const shown = await checkQrcode(desktop.client, { token });
    expect(shown.status).toBe('scanned');
    expect(scan.choices).toContain(shown.number);
    expect(shown.number).toBeGreaterThanOrEqual(10);
    expect(shown.number).toBeLessThanOrEqual(99);
    // The phone's own scan is idempotent: a reload shows the same choices.
    expect((await scanQrcode(phone.client, { token })).choices).toEqual(scan.choices);

    expect(await confirmQrcode(phone.client, { token, number: shown.number })).toEqual({
      status: 'confirmed',
    });
    expect((await checkQrcode(desktop.client, { token })).status).toBe('confirmed');

    const before = await sessionsOf(phone.userId);
    const signedIn = await webLogin(desktop.client, { token });
    expect(signedIn.user_id).toBe(phone.userId);
    expect(signedIn.redirect_url).toBe('/workbench');
    expect((await accountInfo(desktop.client)).user_id).toBe(phone.userId);
    expect(await sessionsOf(phone.userId)).toBe(before + 1);

    // Replayed: the code is spent.
    expect((await checkQrcode(desktop.client, { token })).status).toBe('consumed');
    await rejectsWith(webLogin(desktop.client, { token }), 'qrUsed');
    await rejectsWith(scanQrcode(phone.client, { token }), 'qrUsed');
    expect(await sessionsOf(phone.userId)).toBe(before + 1);
  });

  it('rotates the session: a browser signed in as someone else gets a new token and the old one dies', async () => {
    const phone = await signedInPhone();
    const someoneElse = await signedInPhone();
    const desktop = someoneElse.browser;
    const oldToken = desktop.session;
    const code = await getQrcode(someoneElse.client);
    await scanAndConfirm(phone, { client: someoneElse.client, code });
    expect((await webLogin(someoneElse.client, { token: code.token })).user_id).toBe(phone.userId);
    expect(desktop.session).not.toBe(oldToken);
    const replay = server.sdkBrowser();
    replay.cookies.set('sessionid', { value: oldToken!, httpOnly: true });
    await rejectsWith(accountInfo(replay.client()), 'notLoggedIn');
  });

  it('keeps next to the redirect rule: a foreign address becomes /', async () => {
    const phone = await signedInPhone();
    const desktop = await desktopWithCode('https://evil.example/steal');
    await scanAndConfirm(phone, desktop);
    expect((await webLogin(desktop.client, { token: desktop.code.token })).redirect_url).toBe('/');
  });

  it('creates exactly one session under 50 concurrent polls and redemptions after confirmation', async () => {
    const phone = await signedInPhone();
    const desktop = await desktopWithCode();
    const { token } = desktop.code;
    await scanAndConfirm(phone, desktop);
    const before = await sessionsOf(phone.userId);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0 ? webLogin(desktop.client, { token }) : checkQrcode(desktop.client, { token }),
      ),
    );
    const redemptions = outcomes.filter((_, i) => i % 2 === 0);
    const won = redemptions.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of redemptions.filter((o) => o.status === 'rejected'))
      expect((lost as PromiseRejectedResult).reason.error_code).toBe(1903);
    for (const poll of outcomes.filter((_, i) => i % 2 === 1)) expect(poll.status).toBe('fulfilled');
    expect(await sessionsOf(phone.userId)).toBe(before + 1);
  });
});

describe('QR sign-in: refusals', () => {
  it('refuses another browser: it can neither poll nor redeem the code, even once confirmed', async () => {
    const phone = await signedInPhone();
    const desktop = await desktopWithCode();
    const { token } = desktop.code;
    const phishing = server.sdkBrowser().client();
    await rejectsWith(checkQrcode(phishing, { token }), 'qrOtherBrowser');
    await scanAndConfirm(phone, desktop);
    await rejectsWith(checkQrcode(phishing, { token }), 'qrOtherBrowser');
    await rejectsWith(webLogin(phishing, { token }), 'qrOtherBrowser');
    // A browser with a binding of its own (it asked for a code too) is still another browser.
    await getQrcode(phishing);
    await rejectsWith(webLogin(phishing, { token }), 'qrOtherBrowser');
    // The creating browser still can.
    expect((await webLogin(desktop.client, { token })).user_id).toBe(phone.userId);
  });

  it('lets only the account that scanned decide', async () => {
    const phone = await signedInPhone();
    const other = await signedInPhone();
    const desktop = await desktopWithCode();
    const { token } = desktop.code;
    await scanQrcode(phone.client, { token });
    await rejectsWith(scanQrcode(other.client, { token }), 'qrAlreadyScanned');
    const { number } = await checkQrcode(desktop.client, { token });
    await rejectsWith(confirmQrcode(other.client, { token, number }), 'qrNotYourScan');
    await rejectsWith(confirmQrcode(other.client, { token, cancel: 1 }), 'qrNotYourScan');
    expect((await checkQrcode(desktop.client, { token })).status).toBe('scanned');
    await confirmQrcode(phone.client, { token, number });
    expect((await webLogin(desktop.client, { token })).user_id).toBe(phone.userId);
  });

  it('cancels the code on a wrong number', async () => {
    const phone = await signedInPhone();
    const desktop = await desktopWithCode();
    const { token } = desktop.code;
    const scan = await scanQrcode(phone.client, { token });
    const { number } = await checkQrcode(desktop.client, { token });
    const wrong = scan.choices.find((choice) => choice !== number);
    await rejectsWith(confirmQrcode(phone.client, { token, number: wrong }), 'qrWrongNumber');
    expect((await checkQrcode(desktop.client, { token })).status).toBe('cancelled');
    // Forward only: the right number afterwards changes nothing.
    await rejectsWith(confirmQrcode(phone.client, { token, number }), 'qrCancelled');
    await rejectsWith(webLogin(desktop.client, { token }), 'qrCancelled');
  });

  it('refuses a second decision and a decision before the scan; the phone may cancel', async () => {
    const phone = await signedInPhone();
    const desktop = await desktopWithCode();
    const { token } = desktop.code;
    await rejectsWith(confirmQrcode(phone.client, { token, number: 42 }), 'qrNotScanned');
    await rejectsWith(webLogin(desktop.client, { token }), 'qrNotConfirmed');
    await scanAndConfirm(phone, desktop);
    await rejectsWith(confirmQrcode(phone.client, { token, cancel: 1 }), 'qrAlreadyDecided');
    const { number } = { number: 0 };
    await rejectsWith(confirmQrcode(phone.client, { token, number }), 'qrAlreadyDecided');

    const second = await desktopWithCode();
    await scanQrcode(phone.client, { token: second.code.token });
    expect(await confirmQrcode(phone.client, { token: second.code.token, cancel: 1 })).toEqual({
      status: 'cancelled',
    });
    expect((await checkQrcode(second.client, { token: second.code.token })).status).toBe('cancelled');
    await rejectsWith(webLogin(second.client, { token: second.code.token }), 'qrCancelled');
  });

  it('needs a signed-in phone to scan, and knows no made-up token', async () => {
    const desktop = await desktopWithCode();
    const stranger = server.sdkBrowser().client();
    await rejectsWith(scanQrcode(stranger, { token: desktop.code.token }), 'notLoggedIn');
    const phone = await signedInPhone();
    await rejectsWith(scanQrcode(phone.client, { token: 'A'.repeat(43) }), 'qrExpired');
    await rejectsWith(scanQrcode(phone.client, { token: 'not a token' }), 'qrExpired');
    await rejectsWith(checkQrcode(desktop.client, { token: 'A'.repeat(43) }), 'qrExpired');
  });

  it('expires after 120 s: a new code, a scanned one and a confirmed one', async () => {
    const phone = await signedInPhone();
    const fresh = await desktopWithCode();
    const scanned = await desktopWithCode();
    const confirmed = await desktopWithCode();
    await scanQrcode(phone.client, { token: scanned.code.token });
    await scanAndConfirm(phone, confirmed);
    skew += 121_000;
    try {
      for (const { client, code } of [fresh, scanned, confirmed]) {
        expect(await checkQrcode(client, { token: code.token })).toEqual({
          status: 'expired',
          expires_in: 0,
        });
        await rejectsWith(webLogin(client, { token: code.token }), 'qrExpired');
      }
      await rejectsWith(scanQrcode(phone.client, { token: fresh.code.token }), 'qrExpired');
      const { choices } = { choices: [10] };
      await rejectsWith(
        confirmQrcode(phone.client, { token: scanned.code.token, number: choices[0] }),
        'qrExpired',
      );
    } finally {
      skew -= 121_000;
    }
  });
});

describe('QR sign-in: the per-address cap on new codes', () => {
  it('refuses more codes than the cap from one address with 429, and other addresses go on', async () => {
    const capped = await startSdkServer({}, { limits: { qrCodesPerIpPerHour: 3 } });
    try {
      const desktop = capped.sdkBrowser();
      const client = desktop.client();
      for (let i = 0; i < 3; i += 1) await getQrcode(client);
      const refused = await rejection(getQrcode(client));
      expect({ status: desktop.exchanges.at(-1)?.status, code: refused.error_code }).toEqual({
        status: 429,
        code: 1004,
      });
      expect((await getQrcode(capped.sdkBrowser().client())).token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await capped.close();
    }
  });
});

describe('QR sign-in: the two-step variant for a phone the account does not trust', () => {
  it('asks for the SMS code to the account’s mobile before the confirmation counts', async () => {
    const phone = await signedInPhone();
    // The account forgets the phone as a device: its session lives, but it is no second factor now.
    const { devices } = await listDevices(phone.client);
    const current = devices.find((device) => device.current);
    await forgetDevice(phone.client, { device_id: current!.id });

    const desktop = await desktopWithCode();
    const { token } = desktop.code;
    const scan = await scanQrcode(phone.client, { token });
    expect(scan.need_second_factor).toBe(true);
    const { number } = await checkQrcode(desktop.client, { token });
    await rejectsWith(confirmQrcode(phone.client, { token, number }), 'qrSecondFactorRequired');
    expect((await checkQrcode(desktop.client, { token })).status).toBe('scanned');

    const step = await verifyScanQrcode(phone.client, { token });
    expect(step.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(step.need_code).toBe(true);
    expect(step.mobile).toContain('*');
    expect(step.choices).toEqual(scan.choices);
    // The ticket is the scanning session's: another account cannot use it.
    const other = await signedInPhone();
    await rejectsWith(confirmQrcodeByTicket(other.client, { ticket: step.ticket, number }), 'ticketInvalid');
    await rejectsWith(
      confirmQrcodeByTicket(phone.client, { ticket: step.ticket, number, code: '000000' }),
      'codeWrong',
    );
    const code = await server.codeFor(phone.mobile);
    expect(await confirmQrcodeByTicket(phone.client, { ticket: step.ticket, number, code })).toEqual({
      status: 'confirmed',
    });
    await rejectsWith(
      confirmQrcodeByTicket(phone.client, { ticket: step.ticket, number, code }),
      'ticketInvalid',
    );
    expect((await webLogin(desktop.client, { token })).user_id).toBe(phone.userId);
  });
});

describe('QR sign-in in the sso flavour and at the legacy root paths', () => {
  it('answers get_qrcode and check_qrconnect in the sso envelope', async () => {
    const phone = await signedInPhone();
    const desktopBrowser = server.sdkBrowser();
    const sso = desktopBrowser.client('sso');
    const code = await getQrcode(sso, { next: '/' });
    expect(desktopBrowser.exchanges.at(-1)?.path).toBe('/passport/sso/get_qrcode/');
    expect((await checkQrcode(sso, { token: code.token })).status).toBe('new');
    expect(desktopBrowser.exchanges.at(-1)?.path).toBe('/passport/sso/check_qrconnect/');
    const raw = await desktopBrowser.fetch(
      `${server.baseUrl}/passport/sso/check_qrconnect/?token=${code.token}`,
    );
    expect(await raw.json()).toMatchObject({ error_code: 0, data: { status: 'new' } });
    const foreign = await server
      .sdkBrowser()
      .fetch(`${server.baseUrl}/passport/sso/check_qrconnect/?token=${code.token}`);
    expect(await foreign.json()).toMatchObject({ error_code: 1904 });
    await scanAndConfirm(phone, { client: sso, code });
    // web_login has no sso row: the sso client redeems at the web path, in the web envelope.
    expect((await webLogin(sso, { token: code.token })).user_id).toBe(phone.userId);
  });

  it('serves the same flow at the legacy /get_qrcode/ and /check_qrconnect/', async () => {
    const phone = await signedInPhone();
    const desktop = server.sdkBrowser();
    const client = desktop.client();
    const code = await legacyGetQrcode(client);
    expect(desktop.exchanges.at(-1)?.path).toBe('/get_qrcode/');
    expect((await legacyCheckQrcode(client, { token: code.token })).status).toBe('new');
    await scanQrcode(phone.client, { token: code.token });
    const { number } = await legacyCheckQrcode(client, { token: code.token });
    await confirmQrcode(phone.client, { token: code.token, number });
    expect((await legacyCheckQrcode(client, { token: code.token })).status).toBe('confirmed');
    expect((await webLogin(client, { token: code.token })).user_id).toBe(phone.userId);
    await rejectsWith(
      legacyCheckQrcode(server.sdkBrowser().client(), { token: code.token }),
      'qrOtherBrowser',
    );
  });
});
