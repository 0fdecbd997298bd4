// An agent (an MCP-style client) and a product API, with Portico as the authorization server:
//  1. the product API publishes RFC 9728 protected-resource metadata and answers 401 with
//     `WWW-Authenticate: Bearer resource_metadata="…"` (createProtectedResource);
//  2. the agent, knowing only the API's URL, reads that metadata, finds Portico's issuer, reads its
//     discovery document, registers itself (RFC 7591, with the deployment's initial access token),
//     and runs the authorization code flow with PKCE, its redirect on a loopback port (RFC 8252);
//  3. the person approves at Portico; the agent calls the API with the token, which the API checks
//     by introspection with its own client (listed in the deployment's OPEN_RESOURCE_SERVERS): an
//     access token, issued to an agent the API accepts (`clients`), with the scopes it needs.
// Run against a server started with OPEN_REGISTRATION_TOKEN, OPEN_SCOPES=notes.read=…|…,
// OPEN_RESOURCE_SERVERS=<the API's client id>:
//   PASSPORT_ISSUER=http://localhost:3000/oauth REGISTRATION_TOKEN=… API_CLIENT_ID=… API_CLIENT_SECRET=… \
//     node packages/management/examples/mcp-agent.mjs
// then open the printed address in a browser signed in to Portico.
// CI runs it (apps/passport-server/test/conformance/agents.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createProtectedResource, ProtectedResourceError } from '@portico/management';

const issuer = process.env.PASSPORT_ISSUER ?? 'http://localhost:3000/oauth';
const registrationToken = process.env.REGISTRATION_TOKEN ?? '';
const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

// ── The product API ─────────────────────────────────────────────────────────────────────────────
const api = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', resource.metadata.resource);
  if (url.pathname === resource.metadataPath) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(resource.metadata));
    return;
  }
  try {
    const token = await resource.verify(request.headers.authorization, ['notes.read']);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ notes: [`a note for ${token.sub}`], sub: token.sub, client: token.clientId }));
  } catch (error) {
    if (!(error instanceof ProtectedResourceError)) throw error;
    response.writeHead(error.status, { 'www-authenticate': error.wwwAuthenticate }).end();
  }
});
const apiPort = await listen(api);
// The apps whose tokens the API accepts: the agents registered for it (here, the one below once it
// has registered). A token the person gave any other app is refused, though Portico issued it.
const agents = new Set();
const resource = createProtectedResource({
  resource: `http://127.0.0.1:${apiPort}/mcp`,
  issuer,
  clientId: process.env.API_CLIENT_ID ?? '',
  clientSecret: process.env.API_CLIENT_SECRET ?? '',
  clients: (clientId) => agents.has(clientId),
  scopes: ['notes.read'],
  resourceName: 'Notes',
});

// ── The agent: it knows the API's URL and nothing else ──────────────────────────────────────────
const json = async (answer) => {
  if (!answer.ok) throw new Error(`${answer.url} answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
};
const first = await fetch(resource.metadata.resource);
const challenge = first.headers.get('www-authenticate') ?? '';
const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
if (first.status !== 401 || !metadataUrl)
  throw new Error(`expected a 401 naming resource_metadata: ${challenge}`);
const metadata = await json(await fetch(metadataUrl));
const [authorizationServer] = metadata.authorization_servers;
const discovery = await json(await fetch(`${authorizationServer}/.well-known/openid-configuration`));
if (discovery.issuer !== authorizationServer) throw new Error('the discovery document names another issuer');

// A loopback redirect for the person's browser to come back to.
let arrived;
const callbackArrived = new Promise((resolve) => {
  arrived = resolve;
});
const callback = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('You can close this tab.');
  arrived(new URL(request.url ?? '/', redirectUri));
});
const redirectUri = `http://127.0.0.1:${await listen(callback)}/callback`;

const registered = await json(
  await fetch(discovery.registration_endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${registrationToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Notes agent',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: `openid ${metadata.scopes_supported.join(' ')}`,
    }),
  }),
);
agents.add(registered.client_id);

const verifier = randomBytes(32).toString('base64url');
const state = randomBytes(16).toString('base64url');
const authorize = new URL(discovery.authorization_endpoint);
authorize.search = new URLSearchParams({
  client_id: registered.client_id,
  response_type: 'code',
  redirect_uri: redirectUri,
  scope: `openid ${metadata.scopes_supported.join(' ')}`,
  code_challenge: createHash('sha256').update(verifier).digest('base64url'),
  code_challenge_method: 'S256',
  state,
}).toString();
console.log(`OPEN ${authorize.href}`);

const back = await callbackArrived;
callback.close();
if (back.searchParams.get('state') !== state) throw new Error('the state came back changed');
if (back.searchParams.get('iss') && back.searchParams.get('iss') !== authorizationServer)
  throw new Error('the answer came from another issuer (RFC 9207)');
const code = back.searchParams.get('code');
if (!code) throw new Error(`no code: ${back.searchParams.get('error')}`);
const tokens = await json(
  await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: registered.client_id,
      code_verifier: verifier,
    }),
  }),
);

const notes = await json(
  await fetch(resource.metadata.resource, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
);
console.log(`API ${JSON.stringify({ ...notes, agent: registered.client_id })}`);
api.close();
