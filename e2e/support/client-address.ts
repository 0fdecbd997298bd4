import type { BrowserContext, Request } from '@playwright/test';
import type { RunningServer } from './server';

// The risk rules count code sends, failures, lookups and puzzle draws per client address for 10–60
// minutes, and every browser here connects from 127.0.0.1. The tests of a worker share one server, so
// each test acts from an address of its own: the server trusts the loopback hop as a proxy
// (TRUST_PROXY, support/server.ts) and every request of the test's browser contexts to that server
// names the test's address in `x-forwarded-for`, as a reverse proxy in front of the passport would.
// Only requests to the passport's port carry it: the other loopback peers (SSO service, OpenID and
// captcha providers) see the browser as it is. A route adds the header rather than
// `extraHTTPHeaders`, which Chromium would put on cross-origin requests too and preflight them.

const HEADER = 'x-forwarded-for';
const addresses = new WeakMap<BrowserContext, string>();

/** The test's client address (127.0.0.n, still "this machine"), the n-th a server handed out. */
export function clientAddressFor(serial: number): string {
  // 127.0.0.1 is the hop itself (and the address of the tests' own requests to the dev routes).
  if (serial < 1 || serial > 253) throw new Error(`client address ${serial} is out of 127.0.0.2–254`);
  return `127.0.0.${serial + 1}`;
}

/** Every request of `context` to `server` (under any host name: localhost, 127.0.0.1) comes from `address`. */
export async function actFrom(
  context: BrowserContext,
  server: RunningServer,
  address: string,
): Promise<void> {
  addresses.set(context, address);
  await context.route(
    (url) => url.port === String(server.port),
    (route) => route.fallback({ headers: withClientAddress(context, route.request()) }),
  );
}

/**
 * The header naming the context's address, for requests that bypass its routes: `page.request`, and
 * `route.fetch()` in a page's own route (page routes run before the context's). Empty for a context
 * the fixtures did not set up.
 */
export function clientHeaders(context: BrowserContext): Record<string, string> {
  const address = addresses.get(context);
  return address ? { [HEADER]: address } : {};
}

/** A request's headers with its context's client address (a header the page set itself wins). */
export function withClientAddress(context: BrowserContext, request: Request): Record<string, string> {
  return { ...clientHeaders(context), ...request.headers() };
}
