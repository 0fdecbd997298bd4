import type { BrowserContext, Cookie, Page } from '@playwright/test';
import {
  type AccountClient,
  createAccountClient,
  createCookieJar,
  createRegistration,
  logout,
  sendCode,
  smsLogin,
} from '@portico/account-sdk';
import { CodeType } from '@portico/account-sdk/protocol';
import { clientHeaders } from './client-address';
import { expectWorkbench, PASSWORD } from './person';
import type { RunningServer } from './server';
import { type NewContext, type Outbox, uniqueMobile } from './test';

// An account made through the passport's own API, for a test whose subject is not the sign-up or
// sign-in screen: the SDK itself (as the web app runs it, aid 1128, source web) in this process, with
// the SDK's cookie jar as the browser, then the jar's cookies put into the test's browser context. The
// server sees what the web app's screens would have sent (code, verify ticket, register or sms_login,
// with the browser's user agent, from the test's client address), so the account, its remembered
// device and its audit entries are the ones a sign-up on the screen leaves; the browser holds the same
// cookies (session, CSRF token, device token, web id) and is the account's known device.

/** What sets the cookies: the passport's Set-Cookie lines and the SDK's own `document.cookie` writes. */
type CookieLines = Map<string, string>;

/** A browser in this process: the SDK on the SDK's cookie jar, acting from `page`'s client address. */
async function apiBrowser(page: Page, server: RunningServer) {
  const lines: CookieLines = new Map();
  const remember = (line: string) => lines.set(line.slice(0, line.indexOf('=')).trim(), line);
  // The browser's own user agent: the passport names a remembered device by it ("Chrome on Windows").
  const userAgent = await page.evaluate(() => navigator.userAgent);
  const jar = createCookieJar({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      request.headers.set('user-agent', userAgent);
      for (const [name, value] of Object.entries(clientHeaders(page.context())))
        request.headers.set(name, value);
      const response = await fetch(request);
      for (const line of response.headers.getSetCookie()) remember(line);
      return response;
    },
  });
  const document = {
    get cookie() {
      return jar.document.cookie;
    },
    set cookie(line: string) {
      remember(line);
      jar.document.cookie = line;
    },
  };
  const client = createAccountClient({
    aid: 1128,
    source: 'web',
    baseUrl: server.origin,
    fetch: jar.fetch,
    document,
    // The browser's steps wait on conditions up to 30 s (expect's timeout); an argon2id hash on a
    // loaded machine takes seconds, so no call here gives up sooner than a screen would.
    timeout: 60_000,
  });
  return { client, jar, lines };
}

/** The jar's cookies as Playwright cookies of the passport's host, with their Set-Cookie attributes. */
function cookiesOf(server: RunningServer, held: ReadonlyMap<string, string>, lines: CookieLines): Cookie[] {
  const now = Date.now() / 1000;
  return [...held].map(([name, value]) => {
    const attributes = new Map(
      (lines.get(name) ?? '')
        .split(';')
        .slice(1)
        .map((part) => {
          const at = part.indexOf('=');
          return at < 0
            ? [part.trim().toLowerCase(), '']
            : [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()];
        }),
    );
    const maxAge = attributes.get('max-age');
    const expiresAt = attributes.get('expires');
    const sameSite = (attributes.get('samesite') ?? 'lax').toLowerCase();
    return {
      name,
      value,
      // No Domain attribute: a host-only cookie of the passport's host, as the browser keeps it.
      domain: new URL(server.origin).hostname,
      path: attributes.get('path') || '/',
      expires:
        maxAge !== undefined
          ? Math.floor(now + Number(maxAge))
          : expiresAt
            ? Math.floor(new Date(expiresAt).getTime() / 1000)
            : -1,
      httpOnly: attributes.has('httponly'),
      secure: attributes.has('secure'),
      sameSite: sameSite === 'strict' ? 'Strict' : sameSite === 'none' ? 'None' : 'Lax',
    };
  });
}

/** Sends a code of `type` to `target` through the SDK and reads it from the outbox. */
async function codeFor(
  client: AccountClient,
  outbox: Outbox,
  channel: 'mobile' | 'email',
  target: string,
  type: number,
): Promise<string> {
  const after = Date.now();
  await sendCode(client, { channel, target, type });
  return outbox.code(target, after);
}

export type ApiAccount =
  | { mobile: string; password: string; email?: never }
  | { email: string; password: string; mobile?: never };

/**
 * Registers `account` with a password through the API (a type-1 code from the outbox, its verify
 * ticket, register: the sign-up screen's calls) on a browser of its own, which is then the account's
 * one remembered device. The test's browser contexts stay signed out and unknown to the account.
 * Resolves the new account's user id.
 */
export async function registerElsewhere(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  account: ApiAccount,
): Promise<string> {
  const { client } = await apiBrowser(page, server);
  return register(client, outbox, account);
}

async function register(client: AccountClient, outbox: Outbox, account: ApiAccount): Promise<string> {
  const channel = account.mobile !== undefined ? 'mobile' : 'email';
  const target = (account.mobile ?? account.email) as string;
  const code = await codeFor(client, outbox, channel, target, CodeType.register);
  const registered = await createRegistration<{ user_id: string | number }>(client).submit({
    channel,
    target,
    code,
    password: account.password,
  });
  return String(registered.user_id);
}

/** Puts the API browser's cookies into `context`: from now on it is that browser. */
async function handOver(
  context: BrowserContext,
  server: RunningServer,
  api: Awaited<ReturnType<typeof apiBrowser>>,
): Promise<void> {
  await context.addCookies(cookiesOf(server, api.jar.cookies, api.lines));
}

/**
 * Registers `account` with a password through the API, as the sign-up screen would, and leaves
 * `page`'s browser context signed in as it and remembered as its device (a later password sign-in from
 * this context needs no second verification); with `signedOut`, signed out again as the workbench's
 * "退出登录" leaves it (still the remembered device). Opens nothing. Resolves the new account's user id.
 */
export async function registeredThroughApi(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  account: ApiAccount,
  { signedOut = false }: { signedOut?: boolean } = {},
): Promise<string> {
  const api = await apiBrowser(page, server);
  const userId = await register(api.client, outbox, account);
  if (signedOut) await logout(api.client, { not_redirect: 1 });
  await handOver(page.context(), server, api);
  return userId;
}

/**
 * The organisation specs' two people: a member's account registered through the API in a browser
 * context of its own and signed out there (an existing account is what "add a member" takes), then the
 * manager registered and signed in on `page`. Answers the member's context, page and mobile.
 */
export async function managerAndSignedOutMember(
  page: Page,
  newContext: NewContext,
  server: RunningServer,
  outbox: Outbox,
): Promise<{ memberContext: BrowserContext; memberPage: Page; memberMobile: string }> {
  const memberContext = await newContext();
  const memberPage = await memberContext.newPage();
  const memberMobile = uniqueMobile();
  await registeredThroughApi(
    memberPage,
    server,
    outbox,
    { mobile: memberMobile, password: PASSWORD },
    { signedOut: true },
  );
  await registeredThroughApi(page, server, outbox, { mobile: uniqueMobile(), password: PASSWORD });
  return { memberContext, memberPage, memberMobile };
}

/**
 * Signs in by SMS code through the API, as the login screen's SMS tab would (the first SMS sign-in of
 * a number creates its account, with no password), and leaves `page`'s browser context signed in and
 * remembered. Opens nothing.
 */
export async function signedInBySmsThroughApi(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  { mobile }: { mobile: string },
): Promise<void> {
  const api = await apiBrowser(page, server);
  const code = await codeFor(api.client, outbox, 'mobile', mobile, CodeType.mobileLogin);
  await smsLogin(api.client, { mobile, code, type: CodeType.mobileLogin });
  await handOver(page.context(), server, api);
}

/** Opens the workbench of the account `page` is signed in as (the page a sign-in on the screen ends on). */
export async function openWorkbench(
  page: Page,
  server: RunningServer,
  account: { mobile?: string; email?: string },
): Promise<void> {
  await page.goto(`${server.origin}/workbench`);
  await expectWorkbench(page, server, account);
}

/** Registers `account` through the API in `page`'s context and opens its workbench, signed in. */
export async function registeredOnWorkbench(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  account: ApiAccount,
): Promise<void> {
  await registeredThroughApi(page, server, outbox, account);
  await openWorkbench(page, server, account);
}

/** Signs in (or up) by SMS through the API in `page`'s context and opens the workbench. */
export async function signedInBySmsOnWorkbench(
  page: Page,
  server: RunningServer,
  outbox: Outbox,
  account: { mobile: string },
): Promise<void> {
  await signedInBySmsThroughApi(page, server, outbox, account);
  await openWorkbench(page, server, account);
}
