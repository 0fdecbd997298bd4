import { randomInt } from 'node:crypto';
import { type BrowserContext, type BrowserContextOptions, test as base, expect } from '@playwright/test';
import { actFrom, clientAddressFor } from './client-address';
import { type RunningServer, type ServerOptions, startServer } from './server';

export interface OutboxMessage {
  id: string;
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  text: string;
  created_at: number;
}

/**
 * `expect.poll`'s intervals for a wait on what the test's own step brings about (a message in the
 * outbox, a puzzle drawn): the default backs off to a second between looks, which a passing test then
 * sits through after the thing arrived. Looking more often costs a request to a local server; the
 * timeouts stay as they are.
 */
export const PROMPTLY = { intervals: [50, 100, 200] };

/** The dev outbox as a person reads their phone or mailbox. */
export class Outbox {
  constructor(private readonly origin: string) {}

  async messages(to: string): Promise<OutboxMessage[]> {
    const response = await fetch(`${this.origin}/dev/outbox/messages?to=${encodeURIComponent(to)}`);
    const json = (await response.json()) as { data: { messages: OutboxMessage[] } };
    return json.data.messages;
  }

  /**
   * The messages to `to` that carry a code: what a "no text went out for it" check counts, since a
   * security notice (a new way into the account, told to its channels) may arrive at any time.
   */
  async codeMessages(to: string): Promise<OutboxMessage[]> {
    return (await this.messages(to)).filter((m) => CODE.test(m.text));
  }

  /**
   * The newest 6-digit code sent to `to`, waiting for it to arrive; `after` skips older messages, and
   * a security notice (no code in it) that came after the code is passed over.
   */
  async code(to: string, after = 0): Promise<string> {
    let found: string | undefined;
    await expect
      .poll(
        async () => {
          found = (await this.messages(to))
            .filter((m) => m.created_at >= after)
            .map((m) => CODE.exec(m.text)?.[1])
            .find(Boolean);
          return found;
        },
        { message: `a code sent to ${to}`, ...PROMPTLY },
      )
      .toBeTruthy();
    return found as string;
  }

  /** The invitation link (with its ticket) sent to `to`, waiting for it to arrive. */
  async inviteLink(to: string): Promise<string> {
    let link: string | undefined;
    await expect
      .poll(async () => {
        link = (await this.messages(to)).map((m) => INVITE_LINK.exec(m.text)?.[1]).find(Boolean);
        return link;
      }, PROMPTLY)
      .toBeTruthy();
    return link as string;
  }
}

const CODE = /\b(\d{6})\b/;
const INVITE_LINK = /(https?:\/\/\S+invite_ticket=[A-Za-z0-9_-]{43})/;

/** Opens another browser context for the test's person (their phone, another laptop). */
export type NewContext = (options?: BrowserContextOptions) => Promise<BrowserContext>;

interface Fixtures {
  /**
   * The test's server settings; the default is the README's start with no extra settings. Tests with
   * equal settings share one server per worker (`ServerPool`).
   */
  serverOptions: ServerOptions;
  /**
   * A server of the test's own instead of the worker's shared one: for a test that moves the server's
   * clock (TEST_CLOCK), which would move it for every later test on that server.
   */
  ownServer: boolean;
  /** The test's passport server: shared with the worker's tests of the same settings, or its own. */
  server: RunningServer;
  /** The client address this test's browser contexts act from (support/client-address.ts). */
  clientAddress: string;
  /** `browser.newContext` for a second device of the test's person, acting from the test's address. */
  newContext: NewContext;
  outbox: Outbox;
}

interface WorkerFixtures {
  servers: ServerPool;
}

/**
 * The servers of one worker, one per distinct settings, started when a test first asks for them. The
 * worker runs its tests one after another, so a server serves one test at a time; each test brings its
 * own data (fresh numbers and addresses, a fresh browser context, its own client address), so no test
 * depends on another's. Besides the default server, only the most recently used few are kept, so a
 * worker that goes through many settings does not keep a server (and its puzzle renderer) for each.
 */
export class ServerPool {
  private readonly running = new Map<string, Promise<RunningServer>>();
  private readonly handedOut = new WeakMap<RunningServer, number>();

  constructor(private readonly keep: number) {}

  async get(options: ServerOptions): Promise<RunningServer> {
    const key = settingsKey(options);
    let server = this.running.get(key);
    if (server) this.running.delete(key);
    else server = startServer(options);
    // Map order is use order: the oldest first.
    this.running.set(key, server);
    // The default server is kept for the worker's life: most tests of every file ask for it, so
    // evicting it behind a run of special settings (the per-kind challenge servers) meant starting it
    // again, a whole server start, minutes later.
    const evictable = [...this.running.keys()].filter((k) => k !== DEFAULT_SETTINGS);
    for (const oldest of evictable.slice(0, Math.max(0, evictable.length - this.keep))) {
      const stopping = this.running.get(oldest) as Promise<RunningServer>;
      this.running.delete(oldest);
      await stopping.then((s) => s.stop()).catch(() => {});
    }
    return server;
  }

  /** The next client address of `server` for a test: no two tests of one server share one. */
  nextClientAddress(server: RunningServer): string {
    const serial = (this.handedOut.get(server) ?? 0) + 1;
    this.handedOut.set(server, serial);
    return clientAddressFor(serial);
  }

  async stopAll(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map((server) => server.then((s) => s.stop()).catch(() => {})));
  }
}

/** The README's start, no extra settings: the server most tests share. */
const DEFAULT_SETTINGS = '{}';

/** Settings as a key: the same settings written in another key order are the same server. */
function settingsKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(settingsKey).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${settingsKey(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  servers: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern (none)
    async ({}, use) => {
      const pool = new ServerPool(2);
      try {
        await use(pool);
      } finally {
        await pool.stopAll();
      }
    },
    { scope: 'worker' },
  ],
  serverOptions: [{}, { option: true }],
  ownServer: [false, { option: true }],
  server: async ({ servers, serverOptions, ownServer }, use, testInfo) => {
    const server = ownServer ? await startServer(serverOptions) : await servers.get(serverOptions);
    const from = server.output().length;
    try {
      await use(server);
    } finally {
      if (ownServer) await server.stop();
      if (testInfo.status !== testInfo.expectedStatus) {
        // What the server printed while this test ran.
        await testInfo.attach('server output', {
          body: server.output().slice(from),
          contentType: 'text/plain',
        });
      }
    }
  },
  clientAddress: async ({ servers, server }, use) => {
    await use(servers.nextClientAddress(server));
  },
  context: async ({ context, server, clientAddress }, use) => {
    await actFrom(context, server, clientAddress);
    await use(context);
  },
  newContext: async ({ browser, server, clientAddress }, use) => {
    const made: BrowserContext[] = [];
    await use(async (options) => {
      // The same browser language as the test's own page (the config's), unless the test names one.
      const context = await browser.newContext({ locale: 'zh-CN', ...options });
      made.push(context);
      await actFrom(context, server, clientAddress);
      return context;
    });
    await Promise.all(made.map((context) => context.close().catch(() => {})));
  },
  outbox: async ({ server }, use) => {
    await use(new Outbox(server.origin));
  },
});

export { expect };

/** A fresh mobile number (China, the server's DEFAULT_REGION): 139 + 8 random digits. */
export function uniqueMobile(): string {
  return `+86139${String(randomInt(100_000_000)).padStart(8, '0')}`;
}

/** A fresh e-mail address. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomInt(1e9).toString(36)}@example.com`;
}
