import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createManagementClient, type ManagementClient, ManagementError } from '@portico/management';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../src/domain/webhooks/targets';
import { ENDPOINTS_PER_OWNER } from '../src/operations/webhooks/endpoints';
import { affiliatePaths as aff, ErrorCode, paths } from '../src/protocol';
import { operatorWebhookPath, organisationWebhookPath } from '../src/routes/web/operator-webhooks';
import { eventually } from './support/faults';
import { signInBySms } from './support/flows';
import { type Browser, startServer, type TestServer } from './support/server';

/**
 * Webhooks (docs/webhooks.md) against a real receiver on loopback that checks every signature with the
 * `standardwebhooks` library: delivery, order per stream, retries after 5xx, redelivery, automatic
 * disabling after persistent failure, and refused targets. Runs on SQLite and on PostgreSQL.
 */

interface Received {
  path: string;
  id: string;
  type: string;
  stream: string;
  verified: boolean;
  status: number;
}

/** A receiver: each path answers what its script says (a list of statuses, then 200). */
class Receiver {
  server: Server;
  received: Received[] = [];
  secrets = new Map<string, string>();
  scripts = new Map<string, number[]>();
  origin = '';
  constructor() {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const path = request.url ?? '/';
        const secret = this.secrets.get(path);
        let verified = false;
        try {
          if (secret)
            new Webhook(secret).verify(body, request.headers as IncomingHttpHeaders & Record<string, string>);
          verified = Boolean(secret);
        } catch {
          verified = false;
        }
        const script = this.scripts.get(path) ?? [];
        const status = script.length > 0 ? script.shift()! : 200;
        const event = JSON.parse(body) as { type: string; stream: string };
        this.received.push({
          path,
          id: String(request.headers['webhook-id']),
          type: event.type,
          stream: event.stream,
          verified,
          status,
        });
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(status === 200 ? 'ok' : 'receiver is down');
      });
    });
  }
  async start() {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }
  close() {
    return new Promise<void>((done) => this.server.close(() => done()));
  }
}

let server: TestServer;
let baseUrl: string;
let operator: Browser;
let operatorMobile: string;
let admin: ManagementClient;
const receiver = new Receiver();
/** The server's clock runs this far ahead of the wall clock (a test moves it a day on). */
let offset = 0;

async function createKey(scopes: string[]) {
  await server.app.db.updateTable('sessions').set({ verified_at: server.app.runtime.now() }).execute();
  const answer = await operator.post(paths.web.operatorApiKeysCreate, {
    name: `key ${scopes.join(' ')}`,
    scopes: scopes.join(' '),
  });
  expect(answer.body.message).toBe('success');
  return answer.body.data.key as string;
}

beforeAll(async () => {
  await receiver.start();
  server = await startServer(
    { webhooks: { retryHours: 24, privateTargets: true, deliveryRetentionDays: 30 } },
    {
      now: () => Date.now() + offset,
      limits: {
        sendCooldownMs: 10,
        webhookPollMs: 50,
        webhookRetryBaseMs: 20,
        webhookRetryMaxMs: 100,
        eventWakeDelayMs: 10,
        eventPollMs: 100,
      },
    },
  );
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  operator = server.browser();
  const { userId, mobile } = await signInBySms(server, operator);
  operatorMobile = mobile;
  server.app.config.operators.push(userId);
  // The operator reads English: a notice sent without a request follows their saved language.
  await operator.post(paths.profile.updateLanguage, { language: 'en' });
  admin = createManagementClient({
    baseUrl,
    apiKey: await createKey(['users:read', 'users:write', 'webhooks:write']),
  });
});
afterAll(async () => {
  await server?.close();
  await receiver.close();
});

/** Registers an endpoint at `path` for the account events, its secret given to the receiver. */
async function endpointAt(
  path: string,
  eventTypes = 'account.frozen account.unfrozen account.sessions_revoked',
) {
  const created = await admin.webhooks.create({ url: `${receiver.origin}${path}`, event_types: eventTypes });
  expect(created.secret).toMatch(/^whsec_/);
  receiver.secrets.set(path, created.secret);
  return created;
}

const waitFor = async (what: string, check: () => boolean | Promise<boolean>) =>
  expect(await eventually(60_000, async () => check()), what).toBe(true);

describe('delivery', () => {
  it('signs each event per Standard Webhooks, with the event id as webhook-id', async () => {
    const endpoint = await endpointAt('/plain');
    const { userId } = await signInBySms(server, server.browser());
    await admin.users.freeze(userId);
    await waitFor('two deliveries', () => receiver.at('/plain').length >= 2);
    const got = receiver.at('/plain');
    expect(got.map((r) => r.type)).toEqual(['account.frozen', 'account.sessions_revoked']);
    expect(got.every((r) => r.verified)).toBe(true);
    const events = await server.app.db
      .selectFrom('events')
      .select(['id', 'type'])
      .where('stream', '=', `user:${userId}`)
      .where('type', 'in', ['account.frozen', 'account.sessions_revoked'])
      .orderBy('position')
      .execute();
    expect(got.map((r) => r.id)).toEqual(events.map((e) => e.id));

    const log = await admin.webhooks.deliveries(endpoint.id);
    expect(log.deliveries.map((d) => [d.event_type, d.status, d.attempts, d.last_status])).toEqual([
      ['account.sessions_revoked', 'succeeded', 1, 200],
      ['account.frozen', 'succeeded', 1, 200],
    ]);
    expect(log.deliveries[0]?.history[0]).toMatchObject({ status: 200, response: 'ok' });
    expect(log.deliveries[0]?.last_latency_ms).toBeGreaterThanOrEqual(0);
    // A signature with another secret does not verify: the receiver really checks.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify('{}', {
        'webhook-id': 'x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      }),
    ).toThrow();
  });

  it("forgets an erased person's deliveries and their attempts", async () => {
    await endpointAt('/erased');
    const { userId } = await signInBySms(server, server.browser());
    await admin.users.revokeSessions(userId);
    await waitFor('a delivery about the person', () => receiver.at('/erased').length >= 1);
    const before = await server.app.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('stream', '=', `user:${userId}`)
      .execute();
    expect(before.length).toBeGreaterThan(0);
    await admin.users.delete(userId, { erase: 'now' });
    const kept = await server.app.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where(
        'id',
        'in',
        before.map((d) => d.id),
      )
      .execute();
    expect(kept).toEqual([]);
    const attempts = await server.app.db
      .selectFrom('webhook_attempts')
      .select('id')
      .where(
        'delivery_id',
        'in',
        before.map((d) => d.id),
      )
      .execute();
    expect(attempts).toEqual([]);
  });

  it('keeps order per stream while retrying after 5xx, then redelivers by hand with the same id', async () => {
    const endpoint = await endpointAt('/flaky');
    receiver.scripts.set('/flaky', [500, 503]);
    const { userId } = await signInBySms(server, server.browser());
    await admin.users.freeze(userId);
    await admin.users.unfreeze(userId);
    await admin.users.freeze(userId);
    const expected = [
      'account.frozen',
      'account.sessions_revoked',
      'account.unfrozen',
      'account.frozen',
      'account.sessions_revoked',
    ];
    await waitFor('five successes', () => receiver.at('/flaky').filter((r) => r.status === 200).length >= 5);
    const got = receiver.at('/flaky');
    // The first event failed twice, and nothing after it in the stream went first.
    expect(got.map((r) => [r.type, r.status])).toEqual([
      ['account.frozen', 500],
      ['account.frozen', 503],
      ...expected.map((type) => [type, 200]),
    ]);
    expect(new Set(got.slice(0, 3).map((r) => r.id)).size).toBe(1);
    expect(got.every((r) => r.verified)).toBe(true);

    const log = await admin.webhooks.deliveries(endpoint.id);
    const first = log.deliveries.at(-1)!;
    expect([first.status, first.attempts, first.history.map((a) => a.status)]).toEqual([
      'succeeded',
      3,
      [200, 503, 500],
    ]);
    expect(first.history[2]?.response).toBe('receiver is down');

    const again = await admin.webhooks.redeliver(endpoint.id, first.id);
    expect(again.status).toBe('pending');
    await waitFor('the redelivery', () => receiver.at('/flaky').length >= 8);
    const last = receiver.at('/flaky').at(-1)!;
    expect([last.id, last.type, last.verified]).toEqual([first.event_id, 'account.frozen', true]);
  });

  it('filters by type and signs with both secrets during a rotation', async () => {
    const endpoint = await endpointAt('/rotated', 'account.unfrozen');
    const old = receiver.secrets.get('/rotated')!;
    const rotated = await admin.webhooks.rotateSecret(endpoint.id, { overlap_hours: 1 });
    expect(rotated.secret).not.toBe(old);
    const { userId } = await signInBySms(server, server.browser());
    await admin.users.freeze(userId);
    await admin.users.unfreeze(userId);
    await waitFor('one delivery', () => receiver.at('/rotated').length >= 1);
    // Verified with the old secret by the receiver; the new one verifies the same request too.
    expect(receiver.at('/rotated').map((r) => [r.type, r.verified])).toEqual([['account.unfrozen', true]]);
    receiver.secrets.set('/rotated', rotated.secret);
    await admin.webhooks.redeliver(
      endpoint.id,
      (await admin.webhooks.deliveries(endpoint.id)).deliveries[0]!.id,
    );
    await waitFor('the redelivery', () => receiver.at('/rotated').length >= 2);
    expect(receiver.at('/rotated')[1]?.verified).toBe(true);
  });
});

describe('persistent failure', () => {
  it('gives a delivery up after the retry window and disables the endpoint, with an event', async () => {
    const endpoint = await endpointAt('/down');
    receiver.scripts.set('/down', Array(10_000).fill(500));
    const { userId } = await signInBySms(server, server.browser());
    await admin.users.freeze(userId);
    await waitFor('a few failed attempts', () => receiver.at('/down').length >= 2);
    // A day later on the server's clock, the next failure gives the delivery up.
    offset += 24 * 3_600_000 + 60_000;
    await waitFor('disabled', async () => !(await admin.webhooks.get(endpoint.id)).enabled);
    const state = await admin.webhooks.get(endpoint.id);
    expect([state.enabled, state.disabled_reason]).toEqual([false, 'failing']);
    const log = await admin.webhooks.deliveries(endpoint.id);
    // The first event was given up; the second, behind it in the stream, waits for the endpoint.
    expect(log.deliveries.map((d) => [d.event_type, d.status])).toEqual([
      ['account.sessions_revoked', 'pending'],
      ['account.frozen', 'failed'],
    ]);
    const disabled = await server.app.db
      .selectFrom('events')
      .select(['type', 'stream'])
      .where('type', '=', 'webhook.endpoint_disabled')
      .where('stream', '=', `webhook:${endpoint.id}`)
      .execute();
    expect(disabled).toHaveLength(1);
    // The operators hear of it on their own channel, in the notice's fixed words, in their language.
    const outbox = await server.app.inject({
      method: 'GET',
      url: `/dev/outbox/messages?to=${encodeURIComponent(operatorMobile)}`,
    });
    const texts: string[] = outbox.json().data.messages.map((m: { text: string }) => m.text);
    expect(texts.some((t) => t.includes('A webhook endpoint failed every delivery'))).toBe(true);
    // Disabled: nothing is sent, and a redelivery is refused until it is enabled again.
    const count = receiver.at('/down').length;
    const refused = await admin.webhooks
      .redeliver(endpoint.id, log.deliveries[1]!.id)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ManagementError);
    expect((refused as ManagementError).problem).toMatchObject({ status: 400, reason: 'endpoint_disabled' });
    receiver.scripts.set('/down', []);
    await admin.webhooks.enable(endpoint.id);
    // Enabled: the event that waited behind the given-up one goes; the given-up one goes when asked.
    await waitFor('the waiting event', () => receiver.at('/down').some((r) => r.status === 200));
    // While a server holds its lease (sending it now), a redelivery is refused: the attempt's outcome
    // would overwrite the fresh retry window.
    const leased = () =>
      server.app.db.updateTable('webhook_deliveries').where('id', '=', log.deliveries[1]!.id);
    await leased()
      .set({ lease_owner: 'another-server', lease_until: Date.now() + 60_000 })
      .execute();
    const inFlight = await admin.webhooks
      .redeliver(endpoint.id, log.deliveries[1]!.id)
      .catch((e: unknown) => e);
    expect(inFlight).toBeInstanceOf(ManagementError);
    expect((inFlight as ManagementError).problem).toMatchObject({
      status: 400,
      field: 'delivery_id',
      reason: 'delivery_in_flight',
    });
    await leased().set({ lease_owner: null, lease_until: null }).execute();
    await admin.webhooks.redeliver(endpoint.id, log.deliveries[1]!.id);
    await waitFor('the redelivery', () => receiver.at('/down').filter((r) => r.status === 200).length >= 2);
    expect(
      receiver
        .at('/down')
        .slice(count)
        .map((r) => [r.type, r.status, r.verified]),
    ).toEqual([
      ['account.sessions_revoked', 200, true],
      ['account.frozen', 200, true],
    ]);
    expect((await admin.webhooks.get(endpoint.id)).failing_since).toBeNull();
  });
});

describe('endpoints', () => {
  it('are managed by key and by operator, need webhooks:write, and disappear with their log', async () => {
    const reader = createManagementClient({ baseUrl, apiKey: await createKey(['users:read']) });
    const refusal = await reader.webhooks.list().catch((e: unknown) => e);
    expect((refusal as ManagementError).errorName).toBe('INSUFFICIENT_SCOPE');

    const endpoint = await endpointAt('/managed');
    const listed = await operator.get(operatorWebhookPath('list'));
    expect(listed.body.data.endpoints.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);
    const updated = await admin.webhooks.update(endpoint.id, {
      description: 'billing',
      event_types: 'account.',
    });
    expect([updated.description, updated.event_types]).toEqual(['billing', ['account.']]);
    const unknown = await admin.webhooks
      .update(endpoint.id, { event_types: 'account.nope' })
      .catch((e: unknown) => e);
    expect((unknown as ManagementError).status).toBe(400);
    expect((await admin.webhooks.disable(endpoint.id)).disabled_reason).toBe('manual');

    // The operator's web route: creating needs a fresh step-up.
    await server.app.db.updateTable('sessions').set({ verified_at: 1 }).execute();
    const stale = await operator.post(operatorWebhookPath('create'), { url: `${receiver.origin}/x` });
    expect(stale.body.data?.error_code ?? stale.body.error_code).toBeDefined();
    await server.app.db.updateTable('sessions').set({ verified_at: server.app.runtime.now() }).execute();
    const made = await operator.post(operatorWebhookPath('create'), { url: `${receiver.origin}/x` });
    expect(made.body.message).toBe('success');
    expect(made.body.data.secret).toMatch(/^whsec_/);

    expect(await admin.webhooks.delete(endpoint.id)).toEqual({ id: endpoint.id, deleted: true });
    const gone = await admin.webhooks.get(endpoint.id).catch((e: unknown) => e);
    expect((gone as ManagementError).status).toBe(404);
    const rows = await server.app.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe("an organisation's endpoints", () => {
  async function organisation(name: string) {
    const browser = server.browser();
    await signInBySms(server, browser);
    const created = await browser.post(aff.subjectCreateByMobile, {
      subject_name: name,
      deputy_name: 'Boss',
    });
    expect(created.body.message, 'fixture: create subject').toBe('success');
    return { browser, sid: created.body.data.sec_subject_uid as string };
  }

  it('are at most ENDPOINTS_PER_OWNER per organisation; another organisation is not held back', async () => {
    const a = await organisation('Many Hooks');
    const b = await organisation('Few Hooks');
    await server.app.db.updateTable('sessions').set({ verified_at: server.app.runtime.now() }).execute();
    const create = (o: { browser: typeof a.browser; sid: string }, n: number) =>
      o.browser.post(organisationWebhookPath('create'), {
        subject_uid: o.sid,
        url: `${receiver.origin}/many-${n}`,
      });
    for (let n = 0; n < ENDPOINTS_PER_OWNER; n++)
      expect((await create(a, n)).body.message, `endpoint ${n}`).toBe('success');
    const past = await create(a, ENDPOINTS_PER_OWNER);
    expect(past.body.data).toMatchObject({
      error_code: ErrorCode.invalidParam,
      reason: 'too_many_endpoints',
    });
    expect((await create(b, 0)).body.message).toBe('success');
  });

  it("are its manager's, and receive only that organisation's events", async () => {
    const a = await organisation('Harbour Works');
    const b = await organisation('Dock Lane');
    await server.app.db.updateTable('sessions').set({ verified_at: server.app.runtime.now() }).execute();
    const made = await a.browser.post(organisationWebhookPath('create'), {
      subject_uid: a.sid,
      url: `${receiver.origin}/org-a`,
      event_types: 'organisation.',
    });
    expect(made.body.message).toBe('success');
    expect(made.body.data.organisation_id).not.toBeNull();
    receiver.secrets.set('/org-a', made.body.data.secret);

    await b.browser.post(aff.subjectUpdate, { sec_subject_uid: b.sid, subject_name: 'Dock Lane Ltd' });
    await a.browser.post(aff.subjectUpdate, { sec_subject_uid: a.sid, subject_name: 'Harbour Works Ltd' });
    await waitFor("a's update", () => receiver.at('/org-a').length >= 1);
    // b's event came before a's second in the outbox, which is queued in order: had b's been queued
    // for this endpoint, it would be in its log by the time a's second is delivered.
    await a.browser.post(aff.subjectUpdate, { sec_subject_uid: a.sid, subject_name: 'Harbour Works plc' });
    await waitFor("a's second update", () => receiver.at('/org-a').length >= 2);
    expect(receiver.at('/org-a').map((r) => [r.type, r.verified])).toEqual([
      ['organisation.updated', true],
      ['organisation.updated', true],
    ]);
    const queued = await server.app.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', made.body.data.id)
      .execute();
    expect(queued).toHaveLength(2);

    // Another organisation's manager neither sees nor reaches it; a deployment key does not either.
    const theirs = await b.browser.get(
      `${organisationWebhookPath('list')}?subject_uid=${encodeURIComponent(b.sid)}`,
    );
    expect(theirs.body.data.endpoints).toEqual([]);
    const intrusion = await b.browser.get(
      `${organisationWebhookPath('list')}?subject_uid=${encodeURIComponent(a.sid)}`,
    );
    expect(intrusion.body.message).not.toBe('success');
    const byKey = await admin.webhooks.get(made.body.data.id).catch((e: unknown) => e);
    expect((byKey as ManagementError).status).toBe(404);
  });

  it("an organisation's key manages that organisation's endpoints only, which receive its events only", async () => {
    const a = await organisation('Key Harbour');
    const b = await organisation('Key Dock');
    const keyOf = async (o: { browser: Browser; sid: string }, scopes: string) => {
      await server.app.db.updateTable('sessions').set({ verified_at: server.app.runtime.now() }).execute();
      const made = await o.browser.post(aff.apiKeyCreate, { subject_uid: o.sid, name: 'hooks', scopes });
      expect(made.body.message, JSON.stringify(made.body)).toBe('success');
      return createManagementClient({ baseUrl, apiKey: made.body.data.key });
    };
    const keyA = await keyOf(a, 'webhooks:write');
    const keyB = await keyOf(b, 'webhooks:write organisations:read');
    const deploymentHook = await endpointAt('/deployment-seen');

    const mine = await keyA.webhooks.create({
      url: `${receiver.origin}/key-a`,
      event_types: 'organisation.',
    });
    receiver.secrets.set('/key-a', mine.secret);
    expect(mine.organisation_id).toBe(a.sid);
    const theirs = await keyB.webhooks.create({ url: `${receiver.origin}/key-b` });
    receiver.secrets.set('/key-b', theirs.secret);

    // Each sees its own; neither the deployment's nor the other organisation's.
    expect((await keyA.webhooks.list()).endpoints.map((e) => e.id)).toEqual([mine.id]);
    expect((await keyB.webhooks.list()).endpoints.map((e) => e.id)).toEqual([theirs.id]);
    const refusals = [
      () => keyA.webhooks.get(theirs.id),
      () => keyA.webhooks.update(theirs.id, { description: 'mine now' }),
      () => keyA.webhooks.disable(theirs.id),
      () => keyA.webhooks.rotateSecret(theirs.id),
      () => keyA.webhooks.deliveries(theirs.id),
      () => keyA.webhooks.delete(theirs.id),
      () => keyA.webhooks.get(deploymentHook.id),
      () => keyA.webhooks.delete(deploymentHook.id),
    ];
    for (const attempt of refusals) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ManagementError);
      expect((error as ManagementError).status).toBe(404);
    }
    // Nothing of theirs changed; the deployment's key does not see an organisation's endpoint.
    expect(await keyB.webhooks.get(theirs.id)).toMatchObject({ enabled: true, description: '' });
    expect((await admin.webhooks.get(deploymentHook.id)).enabled).toBe(true);
    expect((await admin.webhooks.list()).endpoints.map((e) => e.id)).not.toContain(mine.id);

    // Its endpoint receives its organisation's events, not the other's.
    await b.browser.post(aff.subjectUpdate, { sec_subject_uid: b.sid, subject_name: 'Key Dock Ltd' });
    await a.browser.post(aff.subjectUpdate, { sec_subject_uid: a.sid, subject_name: 'Key Harbour Ltd' });
    await waitFor("a's update", () => receiver.at('/key-a').length >= 1);
    await waitFor("b's update", () => receiver.at('/key-b').length >= 1);
    await a.browser.post(aff.subjectUpdate, { sec_subject_uid: a.sid, subject_name: 'Key Harbour plc' });
    await waitFor("a's second update", () => receiver.at('/key-a').length >= 2);
    expect(receiver.at('/key-a').map((r) => [r.type, r.verified])).toEqual([
      ['organisation.updated', true],
      ['organisation.updated', true],
    ]);
    const log = await keyA.webhooks.deliveries(mine.id);
    expect(log.deliveries).toHaveLength(2);

    // Its changes are in its organisation's log, with the key as the actor.
    const created = await server.app.db
      .selectFrom('events')
      .select(['subject_id', 'actor'])
      .where('type', '=', 'webhook.endpoint_created')
      .where('stream', '=', `webhook:${mine.id}`)
      .executeTakeFirstOrThrow();
    expect([created.subject_id, JSON.parse(created.actor).kind]).toEqual([a.sid, 'apiKey']);

    // A key without webhooks:write is refused; a frozen organisation's key too.
    const reader = await keyOf(a, 'organisations:read');
    const scope = await reader.webhooks.list().catch((e: unknown) => e);
    expect([(scope as ManagementError).status, (scope as ManagementError).errorName]).toEqual([
      403,
      'INSUFFICIENT_SCOPE',
    ]);
    await server.app.db.updateTable('subjects').set({ is_frozen: 1 }).where('id', '=', a.sid).execute();
    const frozen = await keyA.webhooks.list().catch((e: unknown) => e);
    expect((frozen as ManagementError).errorName).toBe('SUBJECT_FROZEN');
    await server.app.db.updateTable('subjects').set({ is_frozen: 0 }).where('id', '=', a.sid).execute();
    expect(await keyA.webhooks.delete(mine.id)).toEqual({ id: mine.id, deleted: true });
  });
});

describe('targets', () => {
  it('judges addresses: public unicast only', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
      '224.0.0.1',
    ])
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    for (const address of ['93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });

  it('refuses loopback, private and link-local targets without the development setting, also at delivery time', async () => {
    const strict = await startServer(
      {},
      { limits: { webhookPollMs: 50, eventWakeDelayMs: 10, eventPollMs: 100 } },
    );
    try {
      await strict.app.listen({ port: 0, host: '127.0.0.1' });
      const origin = `http://127.0.0.1:${(strict.app.server.address() as AddressInfo).port}`;
      const browser = strict.browser();
      const { userId } = await signInBySms(strict, browser);
      strict.app.config.operators.push(userId);
      await strict.app.db.updateTable('sessions').set({ verified_at: Date.now() }).execute();
      const key = await browser.post(paths.web.operatorApiKeysCreate, {
        name: 'k',
        scopes: 'webhooks:write users:write',
      });
      const client = createManagementClient({ baseUrl: origin, apiKey: key.body.data.key });
      for (const url of [
        'https://127.0.0.1/hook',
        'https://localhost/hook',
        'https://10.0.0.8/hook',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/hook',
        'https://[fd00::1]/hook',
        'https://0.0.0.0/hook',
      ]) {
        const error = (await client.webhooks.create({ url }).catch((e: unknown) => e)) as ManagementError;
        expect([url, error.status, error.errorName]).toEqual([url, 400, 'INVALID_PARAM']);
      }
      // The answer names the reason only, never the address a name resolves to (no map of internal DNS).
      const named = await browser.post(operatorWebhookPath('create'), { url: 'https://localhost/hook' });
      expect(JSON.stringify(named.body)).toContain('private_address');
      expect(JSON.stringify(named.body)).not.toMatch(/127\.0\.0\.1|::1/);
      for (const url of [`${receiver.origin}/strict`, 'ftp://example.com/', 'https://user:pw@example.com/'])
        expect(
          ((await client.webhooks.create({ url }).catch((e: unknown) => e)) as ManagementError).status,
        ).toBe(400);

      // A name that now resolves to loopback (as a rebinding would): the delivery's connection refuses it.
      const port = new URL(receiver.origin).port;
      const now = Date.now();
      await strict.app.db
        .insertInto('webhook_endpoints')
        .values({
          id: 'rebound',
          subject_id: null,
          url: `https://localhost:${port}/strict`,
          description: '',
          event_types: JSON.stringify(['account.']),
          secret: strict.app.webhooks.sealer.seal(`whsec_${Buffer.alloc(32, 2).toString('base64')}`),
          previous_secret: null,
          previous_secret_until: null,
          enabled: 1,
          disabled_reason: null,
          failing_since: null,
          created_by: 'test',
          created_at: now - 1000,
          updated_at: now,
        })
        .execute();
      const person = await signInBySms(strict, strict.browser());
      await client.users.unfreeze(person.userId);
      await eventually(60_000, async () => {
        const row = await strict.app.db
          .selectFrom('webhook_deliveries')
          .select('last_error')
          .where('endpoint_id', '=', 'rebound')
          .executeTakeFirst();
        return Boolean(row?.last_error);
      });
      const row = await strict.app.db
        .selectFrom('webhook_deliveries')
        .select(['last_error', 'last_status'])
        .where('endpoint_id', '=', 'rebound')
        .executeTakeFirstOrThrow();
      expect(row.last_status).toBeNull();
      expect(row.last_error).toContain('not a public address');
      expect(row.last_error).not.toMatch(/127\.0\.0\.1|::1/);
      expect(receiver.at('/strict')).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('retention', () => {
  it('the worker deletes finished deliveries queued before WEBHOOK_DELIVERY_RETENTION_DAYS, never a pending one', async () => {
    expect(server.app.config.webhooks.deliveryRetentionDays).toBe(30);
    const kept = await endpointAt('/kept');
    const stuck = await endpointAt('/stuck');
    receiver.scripts.set('/stuck', Array(10_000).fill(500));
    const { userId } = await signInBySms(server, server.browser());
    await admin.users.freeze(userId);
    await waitFor('two deliveries', () => receiver.at('/kept').length >= 2);
    await waitFor('a failed attempt', () => receiver.at('/stuck').length >= 1);
    // Disabled, its deliveries wait as they are: pending, however old.
    await admin.webhooks.disable(stuck.id);
    const finished = (await admin.webhooks.deliveries(kept.id)).deliveries.map((d) => d.id);
    expect(finished).toHaveLength(2);
    const attemptsOf = (ids: string[]) =>
      server.app.db.selectFrom('webhook_attempts').select('id').where('delivery_id', 'in', ids).execute();
    expect(await attemptsOf(finished)).toHaveLength(2);

    // 29 days on the server's clock: nothing goes yet.
    offset += 29 * 86_400_000;
    await server.app.webhooks.worker.sweep();
    expect((await admin.webhooks.deliveries(kept.id)).deliveries).toHaveLength(2);

    // Past 30 days: the finished ones go with their attempts; the pending one stays; a new one stays.
    offset += 2 * 86_400_000;
    await admin.users.unfreeze(userId);
    await waitFor('the new delivery', () => receiver.at('/kept').length >= 3);
    expect(await server.app.webhooks.worker.sweep()).toBeGreaterThanOrEqual(2);
    const left = (await admin.webhooks.deliveries(kept.id)).deliveries;
    expect(left.map((d) => [d.event_type, d.status])).toEqual([['account.unfrozen', 'succeeded']]);
    expect(await attemptsOf(finished)).toEqual([]);
    const waiting = (await admin.webhooks.deliveries(stuck.id)).deliveries;
    expect(waiting.map((d) => d.status)).toContain('pending');
  });
});
