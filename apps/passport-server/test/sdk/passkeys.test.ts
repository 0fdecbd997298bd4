import {
  accountInfo,
  listPasskeys,
  passkeyLoginOptions,
  passkeyLoginVerify,
  passkeyRegisterOptions,
  passkeyRegisterVerify,
  removePasskey,
  renamePasskey,
  sendMobileCode,
  smsLogin,
} from '@portico/account-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType } from '../../src/protocol';
import { SoftwareAuthenticator } from '../support/authenticator';
import { passCooldown } from '../support/flows';
import { PAGE_ORIGIN, rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * The passkey calls of @portico/account-sdk against the real server: their payloads and data types
 * are the wire types held to the server's schemas (test/protocol-types.test-d.ts), and a refusal is an
 * AccountError with its stable name. The browser ceremony itself (`registerPasskey`,
 * `signInWithPasskey`) needs `navigator.credentials`: e2e/tests/passkeys.spec.ts runs it in Chromium.
 */

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({}, { limits: { sendCooldownMs: 5 } });
});
afterAll(async () => server?.close());

describe('the passkey calls', () => {
  it('register, list, rename, sign in elsewhere and remove; a replay is PASSKEY_CHALLENGE_INVALID', async () => {
    const owner = server.sdkBrowser();
    const mobile = freshMobile();
    await passCooldown();
    await sendMobileCode(owner.client(), { mobile, type: CodeType.mobileLogin });
    const account = await smsLogin<{ user_id: string }>(owner.client(), {
      mobile,
      code: await server.codeFor(mobile),
    });

    const authenticator = new SoftwareAuthenticator({ origin: PAGE_ORIGIN });
    const { options } = await passkeyRegisterOptions(owner.client());
    const { json } = authenticator.create(options as never);
    const passkey = await passkeyRegisterVerify(owner.client(), { credential: json, name: 'Desk key' });
    expect(passkey).toMatchObject({ name: 'Desk key', device_type: 'singleDevice', backed_up: false });
    expect((await listPasskeys(owner.client())).passkeys.map((p) => p.id)).toEqual([passkey.id]);
    expect((await renamePasskey(owner.client(), { id: passkey.id, name: 'Desk' })).name).toBe('Desk');

    const elsewhere = server.sdkBrowser();
    const login = await passkeyLoginOptions(elsewhere.client());
    const credential = authenticator.get(login.options);
    const signedIn = await passkeyLoginVerify(elsewhere.client(), { credential });
    expect(signedIn.user_id).toBe(account.user_id);
    expect((await accountInfo<{ user_id: string }>(elsewhere.client())).user_id).toBe(account.user_id);
    const replayed = await rejectsWith(
      passkeyLoginVerify(server.sdkBrowser().client(), { credential }),
      'passkeyChallengeInvalid',
    );
    expect(replayed.status).toBe(400);

    expect(await removePasskey(owner.client(), { id: passkey.id })).toEqual({ removed: passkey.id });
    await rejectsWith(removePasskey(owner.client(), { id: passkey.id }), 'passkeyNotFound');
  });
});
