import { accountInfo } from '@portico/account-sdk';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { rejectsWith, type SdkBrowser, type SdkServer, startSdkServer } from '../support/sdk-browser';

/**
 * The scenario suite's server: the real server on a loopback port (startSdkServer) whose browsers and
 * outbox reads fail fast, naming the request, when the server stops answering; and after each scenario
 * a check that it still answers, so a hang is caught at the scenario that caused it (docs/testing.md,
 * "Scenarios").
 */

/**
 * How long one request may go unanswered: a hang detector, not a timing bound. Generous for a loaded
 * 2-core machine, and below the SDK client's own 15 s (test/support/sdk-browser.ts) so this detector,
 * which names the request, fires first.
 */
export const DEADLINE_MS = 14_000;
/** A scenario's own bound, well above a request's deadline: the deadline, not Vitest, reports a hang. */
export const SCENARIO_TIMEOUT_MS = 120_000;

/** The requests that went unanswered past the deadline, since the last check. */
const unanswered: string[] = [];

/**
 * `promise`, or a failure naming `what` once it has gone unanswered for DEADLINE_MS (then `onExpiry`
 * runs: a request is aborted, so a hung exchange does not hold the server's close).
 */
export async function answered<T>(what: string, promise: Promise<T>, onExpiry?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      unanswered.push(what);
      onExpiry?.();
      reject(new Error(`the server did not answer ${what} within ${DEADLINE_MS / 1000} s`));
    }, DEADLINE_MS);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A browser whose every request (with its redirect hops) has the deadline, and is aborted past it. */
function withDeadline(browser: SdkBrowser): SdkBrowser {
  const inner = browser.fetch;
  const fetch: typeof globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    const expired = new AbortController();
    const signal = AbortSignal.any([request.signal, expired.signal]);
    return answered(`${request.method} ${pathname}`, inner(new Request(request, { signal })), () =>
      expired.abort(),
    );
  };
  // The SDK client reads the browser's `fetch` when it is made (SdkBrowser.client).
  Object.defineProperty(browser, 'fetch', { value: fetch });
  return browser;
}

/** The server's one cheap answer: a session check from a fresh browser (not signed in). */
export async function stillAnswers(server: SdkServer): Promise<void> {
  await rejectsWith(accountInfo(server.sdkBrowser().client()), 'notLoggedIn');
}

/**
 * Starts one scenario server for the file (torn down after it) and checks after every scenario that no
 * request went unanswered and the server still answers. Returns the server, once started.
 */
export function scenarioServer(...args: Parameters<typeof startSdkServer>): () => SdkServer {
  let server: SdkServer | undefined;
  beforeAll(async () => {
    const started = await startSdkServer(...args);
    server = {
      ...started,
      sdkBrowser: () => withDeadline(started.sdkBrowser()),
      codeFor: (to) => answered(`the outbox read for ${to}`, started.codeFor(to)),
    };
  }, 90_000);
  afterEach(async () => {
    const missed = unanswered.splice(0);
    expect(missed, 'requests the server left unanswered').toEqual([]);
    if (server) await stillAnswers(server);
  });
  afterAll(async () => server?.close());
  return () => {
    if (!server) throw new Error('the scenario server has not started');
    return server;
  };
}
