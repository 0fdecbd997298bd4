import { getUserToken, logout, sendMobileCode, smsLogin } from '@portico/account-sdk';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType } from '../../src/protocol';
import { JWKS_PATH } from '../../src/routes/app/jwks';
import { rejectsWith, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { freshMobile } from '../support/server';

/**
 * The product token through the real SDK: `getUserToken` mints it from the real server, a product back
 * end verifies it with stock `jose` against the server's JWKS, and the SDK's cache never hands a token
 * to the wrong person.
 */
const AUDIENCE = 'https://api.example.com';
let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer({
    userToken: { audiences: [AUDIENCE], ttlSeconds: 300, rotationSeconds: 3600 },
  });
});
afterAll(async () => server?.close());

async function signIn(client: Parameters<typeof smsLogin>[0], mobile = freshMobile()) {
  await sendMobileCode(client, { mobile, type: CodeType.mobileLogin });
  return smsLogin<{ user_id: string }>(client, { mobile, code: await server.codeFor(mobile) });
}

describe('getUserToken against the real server', () => {
  it('mints a token a back end verifies with jose; exp in seconds, expires_at in milliseconds', async () => {
    const client = server.sdkBrowser().client();
    const { user_id } = await signIn(client);
    const token = await getUserToken(client);
    const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}${JWKS_PATH}`));
    const { payload } = await jwtVerify(token.token, jwks, { audience: AUDIENCE });
    expect(payload.sub).toBe(user_id);
    expect(token.expires_at).toBe((payload.exp as number) * 1000);
    expect(token.expires_in).toBe(300);
    expect(await getUserToken(client)).toBe(token);
  });

  it('hands out no cached token after a sign-out, and names the next person after a new sign-in', async () => {
    const client = server.sdkBrowser().client();
    const first = await signIn(client);
    const before = await getUserToken(client);
    await logout(client, { not_redirect: 1 });
    await rejectsWith(getUserToken(client), 'notLoggedIn');
    const second = await signIn(client);
    expect(second.user_id).not.toBe(first.user_id);
    const after = await getUserToken(client);
    expect(after.token).not.toBe(before.token);
    const { payload } = await jwtVerify(
      after.token,
      createRemoteJWKSet(new URL(`${server.baseUrl}${JWKS_PATH}`)),
    );
    expect(payload.sub).toBe(second.user_id);
  });
});
