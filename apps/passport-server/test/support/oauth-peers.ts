/// <reference path="../../src/domain/open-auth/oidc-provider.d.ts" />
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
// Typed by the server's declaration (src/domain/open-auth/oidc-provider.d.ts).
import Provider from 'oidc-provider';

/**
 * Real protocol peers on loopback for third-party sign-in tests: a real OpenID provider (the
 * `oidc-provider` package) standing in for Google through GOOGLE_ISSUER, a small GitHub-shaped
 * server (authorize, access_token, /user, /user/emails) through GITHUB_BASE_URL and GITHUB_API_URL; the
 * WeChat-shaped one is in wechat-peer.ts.
 */

export interface PeerAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  /** An organisation's groups (enterprise single sign-on's role rules read them). */
  groups?: string[];
}

/** A cookie jar over fetch that follows nothing by itself. */
class Jar {
  private readonly cookies = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return response;
  }
}

export interface OidcPeer {
  issuer: string;
  accounts: Map<string, PeerAccount>;
  /**
   * Signs `login` in at the provider's own pages (its login form, then its consent form) starting at
   * the authorize URL, and answers the callback URL the provider redirects to (code, state, iss).
   */
  signIn(authorizeUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidcPeer(options: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  port?: number;
}): Promise<OidcPeer> {
  const accounts = new Map<string, PeerAccount>();
  const server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture', 'groups'] },
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    jwks: {
      keys: [
        {
          ...(await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey)),
          alg: 'RS256',
          use: 'sig',
        },
      ],
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, sub: string) {
      return {
        accountId: sub,
        async claims() {
          return { sub, ...accounts.get(sub) };
        },
      };
    },
  });
  // Quiet: the provider reports every refused exchange (which the tests cause on purpose).
  provider.on('server_error', () => {});
  server.on('request', provider.callback());

  const redirectBase = (url: string) => options.redirectUris.some((uri) => url.startsWith(uri));

  return {
    issuer,
    accounts,
    async signIn(authorizeUrl, login) {
      const jar = new Jar();
      let url = authorizeUrl;
      for (let step = 0; step < 12; step += 1) {
        const response = await jar.fetch(url);
        const location = response.headers.get('location');
        if (location) {
          const next = new URL(location, url).href;
          if (redirectBase(next)) return new URL(next);
          url = next;
          continue;
        }
        const html = await response.text();
        const action = html.match(/action="([^"]+)"/)?.[1];
        if (!action)
          throw new Error(`the provider answered ${response.status} without a form: ${html.slice(0, 300)}`);
        const form: Record<string, string> = html.includes('name="login"')
          ? { prompt: 'login', login, password: 'any' }
          : { prompt: 'consent' };
        const posted = await jar.fetch(new URL(action, url).href, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        });
        const after = posted.headers.get('location');
        if (!after) throw new Error(`the provider's form answered ${posted.status}`);
        url = new URL(after, url).href;
      }
      throw new Error('the provider never redirected back');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  avatar_url: string | null;
  emails: { email: string; verified: boolean; primary: boolean }[];
}

export interface GitHubPeer {
  baseUrl: string;
  apiUrl: string;
  users: Map<number, GitHubUser>;
  /** Approves the authorize request as user `id` and answers the callback URL (code, state). */
  approve(authorizeUrl: string, id: number): Promise<URL>;
  /** How many token exchanges were refused (a replayed code, a wrong verifier). */
  refused: () => number;
  close(): Promise<void>;
}

/** A GitHub-shaped OAuth app server: one-use codes bound to redirect_uri and the PKCE challenge. */
export async function startGitHubPeer(options: {
  clientId: string;
  clientSecret: string;
}): Promise<GitHubPeer> {
  const users = new Map<number, GitHubUser>();
  const codes = new Map<string, { userId: number; redirectUri: string; challenge: string; used: boolean }>();
  const tokens = new Map<string, number>();
  let refused = 0;
  const app = Fastify();
  await app.register(formbody);

  app.get('/login/oauth/authorize', async (request, reply) => {
    const q = request.query as Record<string, string>;
    const userId = Number(request.headers['x-approve-as']);
    if (q.client_id !== options.clientId || !q.redirect_uri || !users.has(userId)) {
      return reply.code(400).send('bad request');
    }
    if (q.code_challenge_method !== 'S256' || !q.code_challenge) return reply.code(400).send('PKCE required');
    const code = randomBytes(10).toString('hex');
    codes.set(code, { userId, redirectUri: q.redirect_uri, challenge: q.code_challenge, used: false });
    const target = new URL(q.redirect_uri);
    target.searchParams.set('code', code);
    if (q.state) target.searchParams.set('state', q.state);
    return reply.redirect(target.href, 302);
  });

  // GitHub answers token errors with 200 and an `error` field.
  app.post('/login/oauth/access_token', async (request) => {
    const body = request.body as Record<string, string>;
    const entry = codes.get(body.code ?? '');
    const fail = (error: string) => {
      refused += 1;
      return { error, error_description: error };
    };
    if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret)
      return fail('incorrect_client_credentials');
    if (!entry || entry.used) return fail('bad_verification_code');
    entry.used = true;
    if (entry.redirectUri !== body.redirect_uri) return fail('redirect_uri_mismatch');
    const challenge = createHash('sha256')
      .update(body.code_verifier ?? '')
      .digest('base64url');
    if (challenge !== entry.challenge) return fail('bad_verification_code');
    const token = `gho_${randomBytes(16).toString('hex')}`;
    tokens.set(token, entry.userId);
    return { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' };
  });

  const userOf = (authorization: string | undefined) => {
    const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    return token === undefined ? undefined : users.get(tokens.get(token) ?? -1);
  };
  app.get('/api/user', async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ message: 'Bad credentials' });
    return { id: user.id, login: user.login, name: user.name, avatar_url: user.avatar_url };
  });
  app.get('/api/user/emails', async (request, reply) => {
    const user = userOf(request.headers.authorization);
    if (!user) return reply.code(401).send({ message: 'Bad credentials' });
    return user.emails;
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    apiUrl: `${baseUrl}/api`,
    users,
    async approve(authorizeUrl, id) {
      const response = await fetch(authorizeUrl, {
        redirect: 'manual',
        headers: { 'x-approve-as': String(id) },
      });
      const location = response.headers.get('location');
      if (!location) throw new Error(`GitHub peer answered ${response.status}`);
      return new URL(location);
    },
    refused: () => refused,
    close: () => app.close(),
  };
}
