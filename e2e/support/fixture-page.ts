import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import type { Page, Request } from '@playwright/test';
import type { CallResult, SecondVerification } from './page-globals';

const require = createRequire(import.meta.url);

/** Where the built ESM bundles live: each package's `dist`, and ky (the SDK's one dependency). */
const accountSdkDir = dirname(require.resolve('@portico/account-sdk/package.json'));
const captchaLoaderDir = dirname(require.resolve('@portico/captcha-loader/package.json'));
const kyEntry = createRequire(join(accountSdkDir, 'package.json')).resolve('ky');

const MODULE_ROOTS: Record<string, string> = {
  'account-sdk': join(accountSdkDir, 'dist'),
  'captcha-loader': join(captchaLoaderDir, 'dist'),
  ky: dirname(kyEntry),
};

/** The test-only page's path on the real server's origin; nothing is served there by the server. */
export const FIXTURE_PATH = '/__e2e/fixture.html';

/**
 * The fixture page: an import map points the packages' bare names at their BUILT bundles (served by
 * page.route under /__e2e/m/), and a module puts them on `window.portico`. Every API call the page
 * makes goes to the real server, same-origin.
 */
const FIXTURE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Portico e2e fixture</title>
<script type="importmap">
${JSON.stringify({
  imports: {
    '@portico/account-sdk': '/__e2e/m/account-sdk/index.js',
    '@portico/account-sdk/protocol': '/__e2e/m/account-sdk/protocol.js',
    '@portico/captcha-loader': '/__e2e/m/captcha-loader/index.js',
    ky: `/__e2e/m/ky/${kyEntry.split(sep).pop()}`,
  },
})}
</script>
<script type="module">
import * as sdk from '@portico/account-sdk';
import * as protocol from '@portico/account-sdk/protocol';
import * as loader from '@portico/captcha-loader';

// A plain, serialisable view of a rejection (what the test asserts on).
const plain = (error) =>
  error && typeof error === 'object'
    ? {
        name: error.name,
        kind: error.kind,
        type: error.type,
        error_code: error.error_code,
        description: error.description,
        message: error.message,
        failures: error.failures,
        data: error.data,
        cause: plain(error.cause),
      }
    : error === undefined ? undefined : { message: String(error) };

window.portico = { sdk, protocol, loader };
window.e2e = {
  /** One account client with the challenge installed through the real captcha loader. */
  setup({ language = 'zh' } = {}) {
    const events = [];
    const captcha = loader.createCaptchaLoader({
      aid: 1128,
      language,
      onFallback: ({ from, to, message, elapsedMs }) =>
        events.push({ type: 'fallback', from, to, message, elapsedMs }),
      onLoad: ({ url, elapsedMs, fallbacks }) => events.push({ type: 'load', url, elapsedMs, fallbacks }),
      onLoadError: (error) => events.push({ type: 'loadError', error: plain(error) }),
    });
    const client = sdk.createAccountClient({ aid: 1128, language });
    client.use(sdk.challengePlugin({ captcha }));
    Object.assign(window.e2e, { client, captcha, events, calls: {} });
  },
  /**
   * Second verification handled by the app (secondVerifyPlugin's onSecondVerify): every call it is
   * told about is recorded in e2e.secondVerifications (what the app got; the call rejects by itself).
   */
  handleSecondVerifyInApp() {
    const seen = [];
    window.e2e.client.use(
      sdk.secondVerifyPlugin({
        onSecondVerify: ({ sms_code_key, mobileMasked, failure, config }) =>
          seen.push({ sms_code_key, mobileMasked, error_code: failure.error_code, path: config.path }),
      }),
    );
    window.e2e.secondVerifications = seen;
  },
  /** Starts an SDK call without waiting for it (a challenge may have to be solved first). */
  start(id, call, payload) {
    const fn = sdk[call];
    if (typeof fn !== 'function') throw new Error('no SDK call ' + call);
    window.e2e.calls[id] = fn(window.e2e.client, payload).then(
      (data) => ({ ok: true, data }),
      (error) => ({ ok: false, error: plain(error) }),
    );
  },
  /** How the call settled. */
  result(id) {
    return window.e2e.calls[id];
  },
};
document.body.dataset.ready = 'true';
</script>
</head>
<body>
<main><h1>Portico e2e fixture</h1><button type="button" id="opener">Sign in</button></main>
</body>
</html>`;

async function moduleFile(path: string): Promise<Buffer | null> {
  const match = /^\/__e2e\/m\/([^/]+)\/(.+)$/.exec(path);
  const root = match ? MODULE_ROOTS[match[1] as string] : undefined;
  if (!match || !root) return null;
  const file = normalize(join(root, match[2] as string));
  if (!file.startsWith(root + sep)) return null;
  return readFile(file).catch(() => null);
}

/**
 * Routes /__e2e/** on the server's origin to the fixture page and the built bundles, opens the page
 * and waits until its modules have run.
 */
export async function openFixture(page: Page, origin: string): Promise<void> {
  await page.route(`${origin}/__e2e/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === FIXTURE_PATH) {
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: FIXTURE_HTML });
      return;
    }
    const body = await moduleFile(pathname);
    if (body) await route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body });
    else await route.fulfill({ status: 404, contentType: 'text/plain', body: `no fixture file ${pathname}` });
  });
  await page.goto(`${origin}${FIXTURE_PATH}`);
  await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
}

type CallName = keyof Window['portico']['sdk'];

/** Starts an SDK call in the page without waiting (a challenge may have to be solved first). */
export async function startCall(page: Page, id: string, call: CallName, payload: Record<string, unknown>) {
  await page.evaluate(([i, c, p]) => window.e2e.start(i, c, p), [id, call, payload] as const);
}

/** Lets the app handle second verification (onSecondVerify) on the page's client; see `secondVerifications`. */
export async function handleSecondVerifyInApp(page: Page): Promise<void> {
  await page.evaluate(() => window.e2e.handleSecondVerifyInApp());
}

/** What the app's onSecondVerify was called with so far. */
export async function secondVerifications(page: Page): Promise<SecondVerification[]> {
  return page.evaluate(() => window.e2e.secondVerifications);
}

/** How a started call settled. */
export async function callResult(page: Page, id: string): Promise<CallResult> {
  return page.evaluate((i) => window.e2e.result(i), id);
}

/** Starts a call and waits for it. */
export async function call(
  page: Page,
  call: CallName,
  payload: Record<string, unknown>,
): Promise<CallResult> {
  const id = `call-${Math.random().toString(36).slice(2)}`;
  await startCall(page, id, call, payload);
  return callResult(page, id);
}

/**
 * Every request the page makes to `pathname` (trailing slash or not), from now on. Seen through
 * `page.route` rather than the `request` event: the SDK's requests are clones (ky keeps a copy for a
 * resend), and Chromium reports no body for a cloned request to the event, only to an interception.
 */
export async function requestsTo(page: Page, pathname: string): Promise<Request[]> {
  const seen: Request[] = [];
  const wanted = pathname.replace(/\/+$/, '');
  await page.route(
    (url) => url.pathname.replace(/\/+$/, '') === wanted,
    async (route) => {
      seen.push(route.request());
      await route.fallback();
    },
  );
  return seen;
}

/** A request's form body (the SDK posts application/x-www-form-urlencoded). */
export function formOf(request: Request): URLSearchParams {
  return new URLSearchParams(request.postData() ?? '');
}
