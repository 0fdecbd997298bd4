import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createManagementClient, ManagementError } from '@portico/management';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_PAGE } from '../src/domain/open-auth/provider';
import { paths } from '../src/protocol';
import { signInBySms } from './support/flows';
import { follow, pkce, randomState, rpOptions, useInject } from './support/open-auth-client';
import { type Browser, startServer, type TestServer } from './support/server';

/**
 * OAuth apps through the management API and the published client: a back end registers one of the
 * deployment's apps, a stock relying party (openid-client) uses it at once, and rotating its secret,
 * changing it and deleting it act on that relying party as the provider serves it.
 */

const ISSUER = 'http://localhost:3000/oauth';
const REDIRECT = 'https://app.example.com/callback';

let server: TestServer;
let baseUrl: string;
let operator: Browser;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'portico-management-apps-web-'));
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><html><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(webDist, 'routes.json'), JSON.stringify({ routes: ['/', '/login', CONSENT_PAGE] }));
  server = await startServer({
    openAuth: {
      registrationToken: undefined,
      scopes: [{ name: 'video.list', zh: '查看你的视频', en: 'See your videos' }],
    },
    apps: [{ name: 'web', mount: '/', dist: webDist }],
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  operator = server.browser();
  const { userId } = await signInBySms(server, operator);
  server.app.config.operators.push(userId);
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

async function keyClient(scopes: string) {
  await server.app.db.updateTable('sessions').set({ verified_at: Date.now() }).execute();
  const answer = await operator.post(paths.web.operatorApiKeysCreate, { name: 'apps', scopes });
  expect(answer.body.message, 'fixture: a key').toBe('success');
  return Object.assign(createManagementClient({ baseUrl, apiKey: answer.body.data.key }), {
    keyId: answer.body.data.id as string,
  });
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ManagementError);
  const { status, errorName, problem } = error as ManagementError;
  return { status, name: errorName, problem };
};

/** A stock relying party for the app, discovered as any would be. */
async function relyingParty(clientId: string, secret: string) {
  const config = await client.discovery(
    new URL(ISSUER),
    clientId,
    { client_secret: secret },
    client.ClientSecretBasic(secret),
    rpOptions(server.app),
  );
  return useInject(config, server.app);
}

/** A person authorises the app through the consent page's calls; answers their tokens. */
async function authorised(config: client.Configuration) {
  const person = server.browser();
  await signInBySms(server, person);
  const { verifier, challenge } = pkce();
  const state = randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid user_info video.list',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  });
  const first = await follow(person, url.href, REDIRECT);
  expect(first.interaction, 'the provider sends the person to the consent page').toBeTruthy();
  const decided = await person.post(paths.open.webAuth, {
    interaction: first.interaction ?? '',
    approve: 1,
    scope: '',
  });
  expect(decided.body.status_code, JSON.stringify(decided.body)).toBe(0);
  const back = await follow(person, decided.body.data.redirect_url, REDIRECT);
  expect(back.callback, 'the provider redirects to the app').toBeTruthy();
  return client.authorizationCodeGrant(config, back.callback as URL, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
}

/** The OAuth error of a refused call, or 'success'. */
async function outcome(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'success';
  } catch (error) {
    const challenge = (error as { cause?: { parameters?: { error?: string } }[] }).cause;
    const fromChallenge = Array.isArray(challenge) ? challenge[0]?.parameters?.error : undefined;
    return String((error as { error?: string }).error ?? fromChallenge ?? (error as Error).message);
  }
}

const appEvents = async (clientId: string) =>
  (
    await server.app.db
      .selectFrom('events')
      .select(['type', 'actor', 'data'])
      .where('stream', '=', `oauth_app:${clientId}`)
      .orderBy('position')
      .execute()
  ).map((row) => ({ type: row.type, actor: JSON.parse(row.actor), data: JSON.parse(row.data) }));

describe('OAuth apps through the management API', () => {
  it('registers an app a stock client uses at once; its secret is shown once; rotation and deletion reach the client', async () => {
    const admin = await keyClient('apps:read apps:write');
    const created = await admin.apps.create({
      name: 'Video Club',
      logo_uri: 'https://cdn.example.com/icon.png',
      redirect_uris: [REDIRECT, 'http://127.0.0.1:8080/cb'],
      scopes: ['video.list'],
    });
    expect(created).toMatchObject({
      name: 'Video Club',
      logo_uri: 'https://cdn.example.com/icon.png',
      redirect_uris: [REDIRECT, 'http://127.0.0.1:8080/cb'],
      scopes: ['user_info', 'video.list'],
      owner_user_id: null,
      authorized_count: 0,
    });
    expect(created.client_secret.length).toBeGreaterThanOrEqual(43);

    const rp = await relyingParty(created.id, created.client_secret);
    const tokens = await authorised(rp);
    expect(tokens.access_token).toBeTruthy();

    const read = await admin.apps.get(created.id);
    expect(read).not.toHaveProperty('client_secret');
    expect(read.authorized_count).toBe(1);
    const { apps } = await admin.apps.list({ limit: 100 });
    expect(apps.find((app) => app.id === created.id)).not.toHaveProperty('client_secret');

    const rotated = await admin.apps.rotateSecret(created.id);
    expect(rotated.client_secret).not.toBe(created.client_secret);
    expect(await outcome(client.refreshTokenGrant(rp, tokens.refresh_token as string))).toBe(
      'invalid_client',
    );
    const renewed = await relyingParty(created.id, rotated.client_secret);
    const refreshed = await client.refreshTokenGrant(renewed, tokens.refresh_token as string);
    expect(refreshed.access_token).toBeTruthy();

    expect(await admin.apps.delete(created.id)).toEqual({ id: created.id, deleted: true });
    expect(await outcome(client.refreshTokenGrant(renewed, refreshed.refresh_token as string))).toBe(
      'invalid_client',
    );
    expect((await refusal(admin.apps.get(created.id))).status).toBe(404);
    expect((await refusal(admin.apps.delete(created.id))).status).toBe(404);

    // Each change is an event in the app's stream with the key as its actor, never the secret.
    const events = await appEvents(created.id);
    expect(events.map((e) => e.type)).toEqual([
      'oauth_app.created',
      'oauth_app.secret_rotated',
      'oauth_app.deleted',
    ]);
    expect(events[0]).toMatchObject({
      actor: { kind: 'apiKey' },
      data: { name: 'Video Club', redirectHosts: ['app.example.com', '127.0.0.1:8080'] },
    });
    expect(JSON.stringify(events)).not.toContain(created.client_secret);
  });

  it('changes an app: a redirect URI taken away is refused by the provider, what is left out stays', async () => {
    const admin = await keyClient('apps:read apps:write');
    const created = await admin.apps.create({ name: 'Harbour', redirect_uris: [REDIRECT] });
    const changed = await admin.apps.update(created.id, {
      name: 'Harbour Two',
      redirect_uris: ['https://two.example.com/callback'],
    });
    expect(changed).toMatchObject({
      id: created.id,
      name: 'Harbour Two',
      redirect_uris: ['https://two.example.com/callback'],
      scopes: ['user_info'],
    });
    expect(await admin.apps.update(created.id, { scopes: ['video.list'] })).toMatchObject({
      name: 'Harbour Two',
      redirect_uris: ['https://two.example.com/callback'],
      scopes: ['user_info', 'video.list'],
    });
    // The provider serves the record as changed: the old redirect URI is no longer the app's.
    const rp = await relyingParty(created.id, created.client_secret);
    const person = server.browser();
    await signInBySms(server, person);
    const { challenge } = pkce();
    const url = client.buildAuthorizationUrl(rp, {
      redirect_uri: REDIRECT,
      scope: 'openid user_info',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: randomState(),
    });
    const answer = await person.get(url.pathname + url.search);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('redirect_uri');
    // An empty icon removes it.
    await admin.apps.update(created.id, { logo_uri: 'https://cdn.example.com/h.png' });
    expect((await admin.apps.update(created.id, { logo_uri: '' })).logo_uri).toBe('');
    expect((await appEvents(created.id)).filter((e) => e.type === 'oauth_app.updated')).toHaveLength(4);
  });

  it('refuses redirect URIs that are not https (or loopback http), unknown scopes and bad input, with a 400', async () => {
    const admin = await keyClient('apps:read apps:write');
    for (const uri of [
      'http://app.example.com/cb',
      'https://app.example.com/cb#x',
      'https://user:pw@app.example.com/cb',
      'not a url',
    ]) {
      const refused = await refusal(admin.apps.create({ name: 'Bad', redirect_uris: [uri] }));
      expect(refused.status, uri).toBe(400);
    }
    expect(
      (await refusal(admin.apps.create({ name: 'Bad', redirect_uris: [REDIRECT], scopes: ['admin.all'] })))
        .status,
    ).toBe(400);
    expect((await refusal(admin.apps.create({ name: ' ', redirect_uris: [REDIRECT] }))).status).toBe(400);
    expect((await refusal(admin.apps.create({ name: 'No URIs', redirect_uris: [] }))).status).toBe(400);
    const some = await admin.apps.create({ name: 'Fine', redirect_uris: [REDIRECT] });
    expect(
      (await refusal(admin.apps.update(some.id, { redirect_uris: ['http://app.example.com/cb'] }))).status,
    ).toBe(400);
    expect((await admin.apps.get(some.id)).redirect_uris).toEqual([REDIRECT]);
    expect((await refusal(admin.apps.update('no-such-app', { name: 'x' }))).status).toBe(404);
    expect((await refusal(admin.apps.rotateSecret('no-such-app'))).status).toBe(404);
  });

  it('pages every client, the developer console’s with their owner; honours an idempotency key', async () => {
    const admin = await keyClient('apps:read apps:write');
    const owner = server.browser();
    const { userId } = await signInBySms(server, owner);
    const made = await owner.post('/passport/web/developer/apps/create/', {
      app_name: 'Console App',
      redirect_uris: REDIRECT,
    });
    expect(made.body.message, JSON.stringify(made.body)).toBe('success');
    const first = await admin.apps.create(
      { name: 'Paged', redirect_uris: [REDIRECT] },
      { idempotencyKey: 'k-1' },
    );
    const again = await admin.apps.create(
      { name: 'Paged', redirect_uris: [REDIRECT] },
      { idempotencyKey: 'k-1' },
    );
    expect(again.id).toBe(first.id);
    expect(again.client_secret).toBe(first.client_secret);
    // The first answer is kept for a day to answer retries: sealed, its secret is not in the store.
    const kept = await server.app.store.get(
      `idempotency:${admin.keyId}:${createHash('sha256').update('k-1').digest('base64url')}`,
    );
    expect(kept).toContain('"state":"done"');
    expect(kept).not.toContain(first.client_secret);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await admin.apps.list({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.apps.length).toBeLessThanOrEqual(2);
      seen.push(...page.apps.map((app) => app.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([first.id, made.body.data.client_key]));
    expect(await admin.apps.get(made.body.data.client_key)).toMatchObject({
      name: 'Console App',
      owner_user_id: userId,
    });
    expect((await refusal(admin.apps.list({ cursor: 'not-a-cursor' }))).status).toBe(400);
    // The developer console's changes are the same events, its owner the actor.
    const rotated = await owner.post('/passport/web/developer/apps/rotate_secret/', {
      client_key: made.body.data.client_key,
    });
    expect(rotated.body.message).toBe('success');
    const events = await appEvents(made.body.data.client_key);
    expect(events.map((e) => [e.type, e.actor])).toEqual([
      ['oauth_app.created', { kind: 'person', userId }],
      ['oauth_app.secret_rotated', { kind: 'person', userId }],
    ]);
    expect(events[0]?.data).toMatchObject({ name: 'Console App', redirectHosts: ['app.example.com'] });
  });

  it('asks for apps:read to read and apps:write to change', async () => {
    const writer = await keyClient('apps:read apps:write');
    const app = await writer.apps.create({ name: 'Scoped', redirect_uris: [REDIRECT] });
    const reader = await keyClient('apps:read');
    expect((await reader.apps.get(app.id)).name).toBe('Scoped');
    for (const attempt of [
      () => reader.apps.create({ name: 'x', redirect_uris: [REDIRECT] }),
      () => reader.apps.update(app.id, { name: 'x' }),
      () => reader.apps.rotateSecret(app.id),
      () => reader.apps.delete(app.id),
    ]) {
      const refused = await refusal(attempt());
      expect([refused.status, refused.name, refused.problem.scope]).toEqual([
        403,
        'INSUFFICIENT_SCOPE',
        'apps:write',
      ]);
    }
    const users = await keyClient('users:read');
    expect((await refusal(users.apps.list())).status).toBe(403);
    // The scope before the input's checks: a key that may not change apps learns nothing of which exist.
    for (const id of [app.id, 'never-made']) {
      const refused = await refusal(users.apps.update(id, { name: 'x' }));
      expect([refused.status, refused.name]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    }
    // The key before the input: no key, no word on the body's rules.
    const none = createManagementClient({ baseUrl, apiKey: 'portico_sk_nothing' });
    expect((await refusal(none.apps.create({ name: '', redirect_uris: [] }))).status).toBe(401);
    expect((await writer.apps.get(app.id)).name).toBe('Scoped');
  });
});
