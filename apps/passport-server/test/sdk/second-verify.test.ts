import {
  accountInfo,
  forgetDevice,
  listDevices,
  logout,
  passwordLogin,
  type RememberedDevice,
  type SecondVerifyRequest,
  secondVerifyPlugin,
  sendMobileCode,
  setPassword,
  smsLogin,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType, ErrorCode, SECOND_VALID } from '../../src/protocol';
import { GOOD_PASSWORD } from '../support/flows';
import {
  rejection,
  rejectsWith,
  type SdkBrowser,
  type SdkServer,
  startSdkServer,
} from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * Second verification through the real SDK: `client.use(secondVerifyPlugin(…))` with a scripted dialog answers the
 * server's 2046, sends the code by `sms_code_key` and finishes with `smsLoginContinue`. Each simulated
 * browser is its own device: the SDK makes its own `s_v_web_id` fingerprint in it.
 */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({ secondVerify: true }, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

interface Account {
  user_id: string;
}

/** An account with a mobile and a password, created (and so remembered) on its own browser. */
async function accountWithPassword() {
  const home = server.sdkBrowser();
  const client = home.client();
  const mobile = freshMobile();
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  const account = await smsLogin<Account>(client, { mobile, code: await server.codeFor(mobile) });
  await setPassword(client, { password: GOOD_PASSWORD });
  return { home, homeClient: client, mobile, userId: account.user_id };
}

/** A dialog that sends the code when opened and enters what the outbox got, recording what it saw. */
function scriptedDialog(mobile: string, codes: (real: string) => string[]) {
  const seen: SecondVerifyRequest[] = [];
  return {
    seen,
    dialog: {
      async open(request: SecondVerifyRequest) {
        seen.push(request);
        if (seen.length === 1) await request.sendCode();
        const real = await server.codeFor(mobile);
        const entered = codes(real)[seen.length - 1];
        return entered === undefined ? null : { code: entered };
      },
    },
  };
}

describe('second verification through the SDK', () => {
  it('completes a password sign-in from a new browser through the dialog, then that browser is remembered', async () => {
    const { mobile, userId } = await accountWithPassword();
    const laptop: SdkBrowser = server.sdkBrowser();
    const client = laptop.client();
    const { seen, dialog } = scriptedDialog(mobile, (real) => [real]);
    client.use(secondVerifyPlugin({ dialog }));

    const signedIn = await passwordLogin<Account>(client, { mobile, password: GOOD_PASSWORD });
    expect(signedIn.user_id).toBe(userId);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.mobileMasked).toMatch(/^\+86\*+\d{4}$/);
    expect(seen[0]?.sms_code_key).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(laptop.session).toBeTruthy();
    expect((await accountInfo<Account>(client)).user_id).toBe(userId);

    // Remembered: the next sign-in from this browser goes straight through, no dialog.
    await logout(client, { not_redirect: 1 });
    await passwordLogin(client, { mobile, password: GOOD_PASSWORD });
    expect(seen).toHaveLength(1);

    const { devices } = await listDevices(client);
    expect(devices).toHaveLength(2);
    expect(devices.filter((d: RememberedDevice) => d.current)).toHaveLength(1);
  });

  it('asks again after a wrong code and signs in with the right one', async () => {
    const { mobile } = await accountWithPassword();
    const client = server.sdkBrowser().client();
    const { seen, dialog } = scriptedDialog(mobile, (real) => [
      real === '000000' ? '111111' : '000000',
      real,
    ]);
    client.use(secondVerifyPlugin({ dialog }));
    await passwordLogin(client, { mobile, password: GOOD_PASSWORD });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.error?.error_code).toBe(ErrorCode.codeWrong);
  });

  it('rejects with SECOND_VALID when the dialog is closed, and nobody is signed in', async () => {
    const { mobile } = await accountWithPassword();
    const laptop = server.sdkBrowser();
    const client = laptop.client();
    client.use(secondVerifyPlugin({ dialog: { open: async () => null } }));
    const error = await rejection(passwordLogin(client, { mobile, password: GOOD_PASSWORD }));
    expect({ code: error.error_code, description: error.description }).toEqual({
      code: ErrorCode.secondVerify,
      description: SECOND_VALID,
    });
    expect(laptop.session).toBeUndefined();
  });

  it('forgets the current device through the SDK: the next sign-in asks again', async () => {
    const { mobile, home, homeClient } = await accountWithPassword();
    const { devices } = await listDevices(homeClient);
    const current = devices.find((d: RememberedDevice) => d.current);
    expect(current).toBeDefined();
    await forgetDevice(homeClient, { device_id: current?.id ?? '' });
    await logout(homeClient, { not_redirect: 1 });
    // No dialog installed: the 2046 reaches the caller as a plain failure.
    const error = await rejectsWith(
      passwordLogin(homeClient, { mobile, password: GOOD_PASSWORD }),
      'secondVerify',
    );
    expect(error.data?.sms_code_key).toEqual(expect.any(String));
    expect(home.session).toBeUndefined();
  });

  it('does not let another account forget my device', async () => {
    const mine = await accountWithPassword();
    const [device] = (await listDevices(mine.homeClient)).devices;
    const other = await accountWithPassword();
    await rejectsWith(forgetDevice(other.homeClient, { device_id: device?.id ?? '' }), 'notFound');
    expect((await listDevices(mine.homeClient)).devices).toHaveLength(1);
  });
});
