import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInBySms } from './support/flows';
import { startServer, type TestServer } from './support/server';

/**
 * The wap login of the app flavour (flows/wap-login, docs/app-bridge.md): the SDK's wapLoginUrl leads
 * to the app's sign-in with a safe `next`, login_success to the app's login-success page, and
 * `hand_back=1` to the service when the redirect rule allows it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ allowedOrigins: ['https://docs.example'] });
});
afterAll(async () => server?.close());

const SUCCESS = '/passport/auth/login_success/?service=https%3A%2F%2Fdocs.example%2Fhome';

describe('the wap login', () => {
  it('sends the browser to the app’s sign-in, coming back to a safe next only', async () => {
    const browser = server.browser();
    const answer = await browser.get(
      `/passport/auth/wap_login/?aid=1128&account_sdk_source=app&next=${encodeURIComponent(SUCCESS)}`,
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(`/app/login?next=${encodeURIComponent(SUCCESS)}`);
    // The SDK's wapLoginUrl with a baseUrl builds an absolute next on the passport's origin.
    const absolute = await browser.get(
      `/passport/auth/wap_login/?next=${encodeURIComponent(`http://localhost:3000${SUCCESS}`)}`,
    );
    expect(absolute.headers.location).toBe(`/app/login?next=${encodeURIComponent(SUCCESS)}`);
    const foreign = await browser.get(
      `/passport/auth/wap_login/?next=${encodeURIComponent('https://evil.example/')}`,
    );
    expect(foreign.headers.location).toBe(`/app/login?next=${encodeURIComponent('/app/login-success')}`);
  });

  it('login_success: signed out → sign in first; signed in → the app’s page; hand_back → the allowed service', async () => {
    const browser = server.browser();
    const signedOut = await browser.get(SUCCESS);
    expect(signedOut.headers.location).toBe(`/app/login?next=${encodeURIComponent(SUCCESS)}`);

    await signInBySms(server, browser);
    const page = await browser.get(SUCCESS);
    expect(page.headers.location).toBe(
      `/app/login-success?service=${encodeURIComponent('https://docs.example/home')}`,
    );
    const handBack = await browser.get(`${SUCCESS}&hand_back=1`);
    expect(handBack.headers.location).toBe('https://docs.example/home');
    const evil = await browser.get(
      `/passport/auth/login_success/?service=${encodeURIComponent('https://evil.example/')}&hand_back=1`,
    );
    expect(evil.headers.location).toBe('/');
  });
});
