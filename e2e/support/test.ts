import { randomInt } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import { type RunningServer, type ServerOptions, startServer } from './server';

export interface OutboxMessage {
  id: string;
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  text: string;
  created_at: number;
}

/** The dev outbox as a person reads their phone or mailbox. */
export class Outbox {
  constructor(private readonly origin: string) {}

  async messages(to: string): Promise<OutboxMessage[]> {
    const response = await fetch(`${this.origin}/dev/outbox/messages?to=${encodeURIComponent(to)}`);
    const json = (await response.json()) as { data: { messages: OutboxMessage[] } };
    return json.data.messages;
  }

  /** The newest 6-digit code sent to `to`, waiting for it to arrive; `after` skips older messages. */
  async code(to: string, after = 0): Promise<string> {
    let found: string | undefined;
    await expect
      .poll(
        async () => {
          const newest = (await this.messages(to)).find((m) => m.created_at >= after);
          found = newest ? /\b(\d{6})\b/.exec(newest.text)?.[1] : undefined;
          return found;
        },
        { message: `a code sent to ${to}`, timeout: 10_000 },
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
      })
      .toBeTruthy();
    return link as string;
  }
}

const INVITE_LINK = /(https?:\/\/\S+invite_ticket=[A-Za-z0-9_-]{43})/;

interface Fixtures {
  /** How the test's server is started; the default is the README's start with no extra settings. */
  serverOptions: ServerOptions;
  /** A fresh passport server for this test (its own temp DATA_DIR, so no counters leak between tests). */
  server: RunningServer;
  outbox: Outbox;
}

export const test = base.extend<Fixtures>({
  serverOptions: [{}, { option: true }],
  server: async ({ serverOptions }, use, testInfo) => {
    const server = await startServer(serverOptions);
    try {
      await use(server);
    } finally {
      await server.stop();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' });
      }
    }
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
