import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createProtectedResource, ProtectedResourceError } from '@portico/management';
import { afterAll, beforeAll, expect, it, describe as suite } from 'vitest';
import { storeClient } from '../../src/domain/open-auth/client-records';
import { paths } from '../../src/protocol';
import { signInBySms } from '../support/flows';
import { follow } from '../support/open-auth-client';
import { freePort } from '../support/process';
import { startServer, type TestServer } from '../support/server';

/**
 * Agents (docs/open-authorization.md, "Agents"): `packages/management/examples/mcp-agent.mjs` runs as
 * its own process. Its product API publishes RFC 9728 protected-resource metadata through
 * `createProtectedResource`; its agent, knowing only the API's URL, follows the 401's
 * `resource_metadata` to Portico, registers by RFC 7591 with the initial access token, runs code + PKCE
 * (the person approves in a test browser here) and calls the API, which introspects the token with its
 * own client (OPEN_RESOURCE_SERVERS). Runs on SQLite and PostgreSQL.
 */

const REGISTRATION_TOKEN = 'initial-access-token-agents-0123456789abcdef';
const API_CLIENT = 'notes-api';
const API_SECRET = randomBytes(24).toString('base64url');
const example = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'packages',
  'management',
  'examples',
  'mcp-agent.mjs',
);

let server: TestServer;
let issuer: string;
/** The client id the example's agent registered (the first test). */
let agentClientId = '';

beforeAll(async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  issuer = `${origin}/oauth`;
  server = await startServer({
    publicOrigin: origin,
    openAuth: {
      registrationToken: REGISTRATION_TOKEN,
      scopes: [{ name: 'notes.read', zh: '读取你的笔记', en: 'Read your notes' }],
      resourceServers: [API_CLIENT],
    },
  });
  await server.app.listen({ host: '127.0.0.1', port });
  // The product API's own client: a confidential client with no redirect, for introspection only.
  await storeClient(
    server.app.db,
    {
      client_id: API_CLIENT,
      client_secret: API_SECRET,
      client_name: 'Notes API',
      redirect_uris: [],
      response_types: [],
      grant_types: [],
      scope: 'openid',
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret_expires_at: 0,
      client_id_issued_at: Math.floor(Date.now() / 1000),
    } as never,
    Date.now(),
  );
});
afterAll(async () => {
  await server?.close();
});

suite('agents: protected-resource metadata (RFC 9728), dynamic registration, code + PKCE', () => {
  it('the example agent discovers Portico from the API, registers, is approved, and reads the API', async () => {
    const browser = server.browser();
    const { userId } = await signInBySms(server, browser);
    const child = execFile(process.execPath, [example], {
      env: {
        ...process.env,
        PASSPORT_ISSUER: issuer,
        REGISTRATION_TOKEN,
        API_CLIENT_ID: API_CLIENT,
        API_CLIENT_SECRET: API_SECRET,
      },
      timeout: 90_000,
    });
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const opened = new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk) => {
        stdout += chunk;
        const url = /^OPEN (\S+)$/m.exec(stdout)?.[1];
        if (url) resolve(url);
      });
      child.on('exit', (code) => reject(new Error(`the example exited (${code}) first: ${stderr}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

    // The person's part: the address the agent printed, the consent page, approve.
    const authorize = await opened;
    const redirect = new URL(authorize).searchParams.get('redirect_uri') ?? '';
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const first = await follow(browser, authorize, redirect);
    expect(first.interaction, 'the agent’s request reaches the consent page').toBeTruthy();
    const info = await browser.get(`${paths.open.authInfoV2}?interaction=${first.interaction}`);
    expect(info.body.data).toMatchObject({ app_name: 'Notes agent', scope: [{ name: 'notes.read' }] });
    const decided = await browser.post(paths.open.webAuth, {
      interaction: first.interaction ?? '',
      approve: 1,
    });
    const back = await follow(browser, decided.body.data.redirect_url, redirect);
    expect(back.callback, 'the provider sends the browser back to the agent').toBeTruthy();
    // The browser arrives at the agent's loopback redirect.
    expect((await fetch(back.callback as URL)).status).toBe(200);

    expect(await exited, stderr).toBe(0);
    const answer = JSON.parse(/^API (.+)$/m.exec(stdout)?.[1] ?? '{}');
    expect(answer).toMatchObject({ sub: userId, notes: [`a note for ${userId}`] });
    expect(answer.client).toBe(answer.agent);
    agentClientId = answer.agent;
  });

  it('the API’s helper accepts only an access token of the clients it names', async () => {
    const tokenOf = async (model: string) => {
      const rows = await server.app.db
        .selectFrom('open_auth_records' as never)
        .select('id' as never)
        .where('model' as never, '=', model as never)
        .execute();
      return (rows[0] as { id?: string } | undefined)?.id ?? '';
    };
    const access = await tokenOf('AccessToken');
    const refresh = await tokenOf('RefreshToken');
    expect(access && refresh && agentClientId, 'the first test left the agent’s tokens').toBeTruthy();
    const api = (clients: string[]) =>
      createProtectedResource({
        resource: 'http://127.0.0.1:9/mcp',
        issuer,
        clientId: API_CLIENT,
        clientSecret: API_SECRET,
        clients,
      });
    const refused = (work: Promise<unknown>) =>
      work.then(
        () => Promise.reject(new Error('expected a refusal')),
        (error: unknown) => {
          if (!(error instanceof ProtectedResourceError)) throw error;
          return error.status;
        },
      );
    expect((await api([agentClientId]).verify(`Bearer ${access}`, ['notes.read'])).clientId).toBe(
      agentClientId,
    );
    // The agent's token at an API that accepts another app only: Portico answers it active, the helper
    // refuses it (no confused deputy).
    expect(await refused(api(['another-app']).verify(`Bearer ${access}`))).toBe(401);
    // A refresh token introspects active too (without token_type): refused.
    expect(await refused(api([agentClientId]).verify(`Bearer ${refresh}`))).toBe(401);
  });

  it('introspection of another client’s token: only a listed resource server may', async () => {
    // An ordinary client (not in OPEN_RESOURCE_SERVERS) asking about a token it does not own learns
    // nothing: the provider answers inactive.
    const other = await fetch(`${issuer}/reg`, {
      method: 'POST',
      headers: { authorization: `Bearer ${REGISTRATION_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Nosy', redirect_uris: ['http://127.0.0.1:9/cb'] }),
    }).then((r) => r.json() as Promise<{ client_id: string; client_secret: string }>);
    const ask = (id: string, secret: string, token: string) =>
      fetch(`${issuer}/token/introspection`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token }),
      }).then((r) => r.json() as Promise<{ active: boolean }>);
    const records = await server.app.db
      .selectFrom('open_auth_records' as never)
      .select('id' as never)
      .where('model' as never, '=', 'AccessToken' as never)
      .execute();
    const token = (records[0] as { id?: string } | undefined)?.id;
    expect(token, 'the first test left an access token').toBeTruthy();
    expect((await ask(other.client_id, other.client_secret, token as string)).active).toBe(false);
    expect((await ask(API_CLIENT, API_SECRET, token as string)).active).toBe(true);
    // Not the agent's refresh token: a resource server has no business holding one.
    const refresh = await server.app.db
      .selectFrom('open_auth_records' as never)
      .select('id' as never)
      .where('model' as never, '=', 'RefreshToken' as never)
      .executeTakeFirst();
    const refreshToken = (refresh as { id?: string } | undefined)?.id;
    expect(refreshToken, 'the first test left a refresh token').toBeTruthy();
    expect((await ask(API_CLIENT, API_SECRET, refreshToken as string)).active).toBe(false);
  });
});
