/**
 * A product API as an OAuth protected resource of Portico (RFC 9728): the metadata document an
 * MCP-style client reads to find Portico, the `WWW-Authenticate` challenge that points it there, and
 * the check of the bearer token it comes back with (RFC 7662 introspection with the API's own client,
 * which the deployment lists in OPEN_RESOURCE_SERVERS).
 */

/** The RFC 9728 document, served at `metadataPath`. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
  resource_name?: string;
  resource_documentation?: string;
}

export interface ProtectedResourceOptions {
  /** The API's identifier: its https URL (`https://api.example.com/mcp`); http on loopback for development. */
  resource: string;
  /** Portico's issuer, `https://passport.example.com/oauth`. */
  issuer: string;
  /** The API's own client at Portico, listed in the deployment's OPEN_RESOURCE_SERVERS. */
  clientId: string;
  clientSecret: string;
  /**
   * Required: the apps whose tokens the API accepts — their client ids (a token's `client_id`, or one
   * of its `aud` values, must be one), or a function answering for a client id (the agents the
   * deployment registered for this API). A token Portico issued to any other app the person consented
   * to is refused: without this, every such app could call the API as the person.
   */
  clients: readonly string[] | ((clientId: string) => boolean | Promise<boolean>);
  /** The scopes the API understands (declared in the deployment's OPEN_SCOPES). */
  scopes?: string[];
  resourceName?: string;
  resourceDocumentation?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

/** A token the API accepted: whose it is, for which app, with which scopes. */
export interface VerifiedAccessToken {
  sub: string;
  clientId: string;
  scopes: string[];
  expiresAt: number | undefined;
}

/** A request the API must refuse: answer `status` with this `WWW-Authenticate` header. */
export class ProtectedResourceError extends Error {
  readonly status: 401 | 403;
  readonly wwwAuthenticate: string;
  constructor(status: 401 | 403, wwwAuthenticate: string, message: string) {
    super(message);
    this.name = 'ProtectedResourceError';
    this.status = status;
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

export interface ProtectedResource {
  /** Where to serve `metadata` (RFC 9728 §3.1: the well-known path, then the resource's own path). */
  readonly metadataPath: string;
  /** The absolute URL of the metadata, as the challenge names it. */
  readonly metadataUrl: string;
  readonly metadata: ProtectedResourceMetadata;
  /** The `WWW-Authenticate` value of a 401 or 403 (RFC 6750 §3, RFC 9728 §5.1). */
  challenge(error?: 'invalid_token' | 'insufficient_scope', scopes?: readonly string[]): string;
  /**
   * Checks the request's `Authorization` header: a live bearer access token of Portico, issued to one
   * of `clients`, holding every scope of `requiredScopes`; rejects with a ProtectedResourceError
   * otherwise. A refresh token, another app's token and a sender-constrained (DPoP) token are refused:
   * this check reads bearer access tokens only.
   */
  verify(
    authorization: string | undefined | null,
    requiredScopes?: readonly string[],
  ): Promise<VerifiedAccessToken>;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;

export function createProtectedResource(options: ProtectedResourceOptions): ProtectedResource {
  const { clients } = options;
  if (typeof clients !== 'function' && !(Array.isArray(clients) && clients.length))
    throw new TypeError(
      'createProtectedResource needs `clients`: the client ids whose tokens the API accepts',
    );
  const accepted = async (id: string) =>
    typeof clients === 'function' ? (await clients(id)) === true : clients.includes(id);
  const doFetch = options.fetch ?? fetch;
  const resource = new URL(options.resource);
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const metadataPath = `/.well-known/oauth-protected-resource${path}`;
  const metadataUrl = `${resource.origin}${metadataPath}`;
  const metadata: ProtectedResourceMetadata = {
    resource: options.resource,
    authorization_servers: [options.issuer],
    scopes_supported: [...(options.scopes ?? [])],
    bearer_methods_supported: ['header'],
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    ...(options.resourceDocumentation ? { resource_documentation: options.resourceDocumentation } : {}),
  };
  let introspectionEndpoint: Promise<string> | undefined;

  function challenge(error?: 'invalid_token' | 'insufficient_scope', scopes: readonly string[] = []) {
    const parts = [`resource_metadata=${quoted(metadataUrl)}`];
    if (error) parts.push(`error=${quoted(error)}`);
    if (scopes.length) parts.push(`scope=${quoted(scopes.join(' '))}`);
    return `Bearer ${parts.join(', ')}`;
  }

  async function endpoint(): Promise<string> {
    introspectionEndpoint ??= (async () => {
      const answer = await doFetch(`${options.issuer}/.well-known/openid-configuration`);
      if (!answer.ok) throw new Error(`discovery at ${options.issuer} answered ${answer.status}`);
      const document = (await answer.json()) as { issuer?: string; introspection_endpoint?: string };
      if (document.issuer !== options.issuer || !document.introspection_endpoint)
        throw new Error(`${options.issuer} is not an issuer with introspection`);
      return document.introspection_endpoint;
    })();
    introspectionEndpoint.catch(() => {
      introspectionEndpoint = undefined;
    });
    return introspectionEndpoint;
  }

  async function verify(
    authorization: string | undefined | null,
    requiredScopes: readonly string[] = [],
  ): Promise<VerifiedAccessToken> {
    const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(authorization ?? '')?.[1];
    if (!token) throw new ProtectedResourceError(401, challenge(), 'no bearer token');
    const basic = btoa(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`);
    const answer = await doFetch(await endpoint(), {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    if (!answer.ok) throw new Error(`introspection answered ${answer.status}: ${await answer.text()}`);
    const claims = (await answer.json()) as {
      active?: boolean;
      sub?: string;
      client_id?: string;
      scope?: string;
      exp?: number;
      token_type?: string;
      aud?: string | string[];
      cnf?: unknown;
    };
    // An access token only (Portico answers a refresh token without `token_type`), bearer, of a person.
    if (
      !claims.active ||
      !claims.sub ||
      claims.cnf !== undefined ||
      claims.token_type?.toLowerCase() !== 'bearer'
    )
      throw new ProtectedResourceError(
        401,
        challenge('invalid_token'),
        'the token is not a live bearer access token',
      );
    const audiences = [claims.client_id, ...[claims.aud ?? []].flat()].filter(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    let ours = false;
    for (const audience of audiences) if (!ours) ours = await accepted(audience);
    if (!ours)
      throw new ProtectedResourceError(
        401,
        challenge('invalid_token'),
        'the token was issued to an app this API does not accept',
      );
    const scopes = (claims.scope ?? '').split(' ').filter(Boolean);
    const missing = requiredScopes.filter((scope) => !scopes.includes(scope));
    if (missing.length)
      throw new ProtectedResourceError(
        403,
        challenge('insufficient_scope', requiredScopes),
        `the token lacks ${missing.join(' ')}`,
      );
    return { sub: claims.sub, clientId: claims.client_id ?? '', scopes, expiresAt: claims.exp };
  }

  return { metadataPath, metadataUrl, metadata, challenge, verify };
}
