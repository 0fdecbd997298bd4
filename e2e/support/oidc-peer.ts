import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
// oidc-provider ships no types; the few calls below are typed where they are used.
// @ts-expect-error no declaration file
import Provider from 'oidc-provider';

/**
 * A real OpenID provider on loopback (the `oidc-provider` package), standing in for Google through
 * GOOGLE_ISSUER: its own sign-in and consent pages (devInteractions), discovery, PKCE, ID tokens.
 * It listens first (the passport needs its issuer to start); `allow` registers the passport's
 * callback once the passport's origin is known.
 */
export interface OidcPeer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client with its callback and the people who can sign in (by login name). */
  allow(redirectUri: string, people: Record<string, Record<string, unknown>>): Promise<void>;
  close(): Promise<void>;
}

export async function startOidcPeer(): Promise<OidcPeer> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end('not configured yet');
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'portico-e2e';
  const clientSecret = randomBytes(16).toString('hex');
  return {
    issuer,
    clientId,
    clientSecret,
    async allow(redirectUri, people) {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
        pkce: { required: () => true },
        cookies: { keys: [randomBytes(32).toString('hex')] },
        jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig' }] },
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
          return { accountId: sub, claims: async () => ({ sub, ...people[sub] }) };
        },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
