import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeType } from '../../src/protocol';
import { eventually } from '../support/faults';
import { builtServer, HttpBrowser, type ServerProcess, spawnServer } from '../support/process';

/**
 * kill -9 between an operation and its webhook (docs/webhooks.md, "At least once"): the built server
 * on its SQLite file answers a sign-in, and is killed at once — before its delivery, or while the
 * receiver is refusing it. After the restart the receiver gets every event, signed, and a duplicate
 * carries the same `webhook-id`.
 */
describe.runIf((process.env.PORTICO_TEST_BACKEND ?? 'sqlite') === 'sqlite')(
  'kill -9 before a webhook',
  () => {
    let dataDir = '';
    let main: string;
    let server: ServerProcess | undefined;
    let receiver: Server;
    let receiverOrigin = '';
    let failing = true;
    let secret = '';
    const received: { id: string; type: string; verified: boolean; status: number }[] = [];
    const SECRET = randomBytes(32).toString('hex');

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'portico-hooks-kill-'));
      main = await builtServer();
      receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          let verified = false;
          try {
            new Webhook(secret).verify(body, request.headers as IncomingHttpHeaders & Record<string, string>);
            verified = true;
          } catch {}
          const status = failing ? 503 : 200;
          received.push({
            id: String(request.headers['webhook-id']),
            type: JSON.parse(body).type,
            verified,
            status,
          });
          response.writeHead(status).end();
        });
      });
      await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
      receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await server?.kill();
      await new Promise<void>((done) => receiver.close(() => done()));
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const start = (operators = '') =>
      spawnServer(main, {
        DATA_DIR: dataDir,
        SECRET,
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'error',
        WEBHOOK_PRIVATE_TARGETS: 'on',
        ...(operators ? { OPERATOR_USER_IDS: operators } : {}),
      });

    /** Signs a fresh number in on `browser` (its events: the account's creation and sign-in). */
    async function signIn(browser: HttpBrowser, mobile: string): Promise<string> {
      await browser.request('GET', '/passport/web/account/info/');
      const sent = await browser.request('POST', '/passport/web/send_code/', {
        mobile,
        type: CodeType.mobileLogin,
      });
      expect(sent.message).toBe('success');
      const outbox = await browser.request('GET', `/dev/outbox/messages?to=${encodeURIComponent(mobile)}`);
      const code = String(outbox.data.messages[0]?.text ?? '').match(/\b(\d{6})\b/)?.[1] ?? '';
      const login = await browser.request('POST', '/passport/web/sms_login/', {
        mobile,
        code,
        type: CodeType.mobileLogin,
      });
      expect(login.message).toBe('success');
      return login.data.user_id as string;
    }

    /** The account events of these people, from the server's file. */
    const eventsOf = (userIds: string[]) => {
      const db = new SQLite(join(dataDir, 'portico.db'), { readonly: true });
      try {
        const marks = userIds.map(() => '?').join(', ');
        return db
          .prepare(
            `select id, type from events where type like 'account.%'
             and (actor_user_id in (${marks}) or target_user_id in (${marks})) order by position`,
          )
          .all(...userIds, ...userIds) as { id: string; type: string }[];
      } finally {
        db.close();
      }
    };

    it('delivers every event after the restart, duplicates by the same id', async () => {
      const mobile = (n: number) => `+86139${String((process.pid * 100 + n) % 100_000_000).padStart(8, '0')}`;
      // The operator signs in, then is named operator on the next start, and registers the endpoint.
      server = await start();
      const operator = new HttpBrowser(server.origin, '10.0.0.1');
      const operatorId = await signIn(operator, mobile(1));
      await server.kill();
      server = await start(operatorId);
      const again = new HttpBrowser(server.origin, '10.0.0.1');
      for (const [name, value] of operator.cookies) again.cookies.set(name, value);
      const created = await again.request('POST', '/passport/web/operator/webhooks/create/', {
        url: `${receiverOrigin}/kill`,
        event_types: 'account.',
      });
      expect(created.message, JSON.stringify(created)).toBe('success');
      secret = created.data.secret;

      // Round 1: the receiver refuses the sign-in's events; the server is killed once it has tried.
      const two = await signIn(new HttpBrowser(server.origin, '10.0.0.2'), mobile(2));
      expect(await eventually(60_000, async () => received.some((r) => r.status === 503))).toBe(true);
      await server.kill();
      // Round 2: the receiver is up; killed at once after the answer (before its delivery, most often).
      server = await start(operatorId);
      failing = false;
      const three = await signIn(new HttpBrowser(server.origin, '10.0.0.3'), mobile(3));
      await server.kill();
      server = await start(operatorId);

      const wanted = eventsOf([two, three]);
      expect(wanted.length).toBeGreaterThanOrEqual(2);
      const delivered = () => new Set(received.filter((r) => r.status === 200).map((r) => r.id));
      // A hang detector: retries after the refusals double from 10 s, and a killed attempt's lease is 60 s.
      const ok = await eventually(240_000, async () => wanted.every((e) => delivered().has(e.id)), 250);
      expect(ok, server.stderr()).toBe(true);
      expect(received.every((r) => r.verified)).toBe(true);
      // The refused attempts and their later success share the event's id: a receiver drops duplicates.
      const refused = received.filter((r) => r.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect(delivered().has(r.id)).toBe(true);
    }, 600_000);
  },
);
