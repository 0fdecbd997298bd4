import * as sdk from '@portico/account-sdk';
import * as affiliate from '@portico/affiliate-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SdkServer, startSdkServer } from '../support/sdk-browser';

/**
 * An exported call whose route the server does not serve is a defect: a team that imports it gets a
 * 404. Every function the SDK exports is tried once through the real SDK against the real server, with
 * a web and an sso client; each that sends a request is a call, and every request it sends must reach a
 * route (any answer but 404). The calls still waiting for their route are listed below with the open
 * issue that serves them; the list must shrink, never grow, and a call on it that is served fails the
 * test so the list stays true.
 */
const NOT_SERVED_YET: Record<string, string> = {};

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer();
});
afterAll(async () => server?.close());

type Exported = (...args: unknown[]) => unknown;

/** Runs one export with a fresh browser; answers the requests it sent (none: not a call). */
async function requestsOf(name: string, source: 'web' | 'sso', module: object = sdk) {
  const browser = server.sdkBrowser();
  const client = browser.client(source);
  let started = 0;
  const fetchOf = browser.fetch;
  Object.defineProperty(browser, 'fetch', {
    value: (...args: Parameters<typeof fetch>) => {
      started += 1;
      return fetchOf(...args);
    },
  });
  const outcome = (async () => (module as unknown as Record<string, Exported>)[name]!(client, {}))().catch(
    () => undefined,
  );
  // Helpers that are not calls return or throw at once; a call has started its request within a second
  // (the fingerprint wait). Ten seconds without a request means the export is not a call.
  const deadline = Date.now() + 10_000;
  let done = false;
  void outcome.then(() => {
    done = true;
  });
  while (!done && started === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (started > 0) await outcome;
  return browser.exchanges;
}

describe('every exported call reaches a served route', () => {
  it('finds no 404 outside the list of calls still waiting for their route', async () => {
    const names = Object.keys(sdk).filter(
      (name) => typeof (sdk as Record<string, unknown>)[name] === 'function',
    );
    const calls: string[] = [];
    const unserved: Record<string, string[]> = {};
    for (const name of names) {
      for (const source of ['web', 'sso'] as const) {
        const exchanges = await requestsOf(name, source);
        if (exchanges.length === 0) continue;
        if (source === 'web') calls.push(name);
        const missing = exchanges.filter(({ status }) => status === 404);
        if (missing.length > 0)
          unserved[name] = [
            ...(unserved[name] ?? []),
            ...missing.map(({ method, path }) => `${source}: ${method} ${path}`),
          ];
      }
    }
    expect(calls.length).toBeGreaterThan(50);
    expect(Object.keys(unserved).sort()).toEqual(Object.keys(NOT_SERVED_YET).sort());
  }, 300_000);
});

describe('every call @portico/affiliate-sdk exports reaches a served route', () => {
  it('finds no 404 among the organisation calls (all are served)', async () => {
    const names = Object.keys(affiliate).filter(
      (name) => typeof (affiliate as Record<string, unknown>)[name] === 'function',
    );
    const calls: string[] = [];
    const unserved: string[] = [];
    for (const name of names) {
      const exchanges = await requestsOf(name, 'web', affiliate);
      if (exchanges.length === 0) continue;
      calls.push(name);
      for (const { status, method, path } of exchanges)
        if (status === 404) unserved.push(`${name}: ${method} ${path}`);
    }
    // Every call of the protocol table is exported and was tried.
    expect(calls.length).toBeGreaterThanOrEqual(29);
    expect(unserved).toEqual([]);
  }, 300_000);
});
