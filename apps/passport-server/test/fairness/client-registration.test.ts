import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

/**
 * Operator client registration (RFC 7591, behind OPEN_REGISTRATION_TOKEN) accepted a plain-http
 * redirect URI to any host: a code sent there crosses the network in the clear. Redirect URIs must be
 * https, or http on the loopback interface (a developer's machine), as the developer console requires.
 */
const TOKEN = 'initial-access-token-0123456789abcdef';
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ openAuth: { registrationToken: TOKEN, scopes: [] } });
});
afterAll(async () => server?.close());

const register = (redirect_uris: string[]) =>
  server.app.inject({
    method: 'POST',
    url: '/oauth/reg',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    payload: JSON.stringify({ redirect_uris, client_name: 'An app' }),
  });

describe('operator client registration', () => {
  it.each([
    ['http://app.example.com/callback'],
    ['http://10.0.0.5/callback'],
    ['https://app.example.com/callback', 'http://app.example.com/callback'],
    ['http://localhost.example.com/callback'],
  ])('refuses a plain-http redirect URI off the loopback interface: %s', async (...uris) => {
    const answer = await register(uris);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error).toBe('invalid_redirect_uri');
  });

  it.each([
    ['https://app.example.com/callback'],
    ['http://localhost:8080/callback'],
    ['http://127.0.0.1:8080/callback'],
    ['http://[::1]:8080/callback'],
  ])('accepts https, and http on the loopback interface: %s', async (uri) => {
    const answer = await register([uri]);
    expect(answer.statusCode, answer.body).toBe(201);
  });
});
