import { describe, expect, it } from 'vitest';
import { createProtectedResource, ProtectedResourceError, type ProtectedResourceOptions } from '../src';

const ISSUER = 'https://passport.example.com/oauth';

/** Portico's discovery and introspection as the real server answers them (its suite runs the real one). */
function portico(introspection: Record<string, unknown>) {
  const asked: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: URL | string, init: RequestInit = {}) => {
    asked.push({ url: String(url), init });
    const body = String(url).endsWith('/.well-known/openid-configuration')
      ? { issuer: ISSUER, introspection_endpoint: `${ISSUER}/token/introspection` }
      : introspection;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const options = {
  resource: 'https://api.example.com/mcp',
  issuer: ISSUER,
  clientId: 'api',
  clientSecret: 's3cret',
  clients: ['agent'],
  scopes: ['notes.read'],
};

/** A live access token of the accepted client, as Portico's introspection answers it. */
const live = { active: true, sub: 'u', client_id: 'agent', scope: 'notes.read', token_type: 'Bearer' };

async function refusal(work: Promise<unknown>): Promise<ProtectedResourceError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ProtectedResourceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('createProtectedResource (RFC 9728)', () => {
  it('publishes the metadata at the well-known path with the resource’s own path, naming Portico', () => {
    const resource = createProtectedResource({ ...options, fetch: portico({}).fetch });
    expect(resource.metadataPath).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(resource.metadata).toEqual({
      resource: 'https://api.example.com/mcp',
      authorization_servers: [ISSUER],
      scopes_supported: ['notes.read'],
      bearer_methods_supported: ['header'],
    });
    expect(resource.challenge()).toBe(
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('accepts a live bearer token with the scopes, introspected with the API’s own client', async () => {
    const { fetch, asked } = portico({
      active: true,
      sub: 'u1',
      client_id: 'agent',
      scope: 'openid notes.read',
      exp: 9,
      token_type: 'Bearer',
    });
    const resource = createProtectedResource({ ...options, fetch });
    expect(await resource.verify('Bearer abc', ['notes.read'])).toEqual({
      sub: 'u1',
      clientId: 'agent',
      scopes: ['openid', 'notes.read'],
      expiresAt: 9,
    });
    const call = asked.at(-1);
    expect(call?.url).toBe(`${ISSUER}/token/introspection`);
    expect(new Headers(call?.init.headers).get('authorization')).toBe(`Basic ${btoa('api:s3cret')}`);
    expect(String(call?.init.body)).toBe('token=abc&token_type_hint=access_token');
  });

  it('refuses: no token 401, an inactive or DPoP-bound token 401 invalid_token, a missing scope 403', async () => {
    const none = await refusal(
      createProtectedResource({ ...options, fetch: portico({}).fetch }).verify(undefined),
    );
    expect([none.status, none.wwwAuthenticate]).toEqual([401, expect.stringContaining('resource_metadata=')]);
    const inactive = await refusal(
      createProtectedResource({ ...options, fetch: portico({ active: false }).fetch }).verify('Bearer x'),
    );
    expect([inactive.status, inactive.wwwAuthenticate]).toEqual([
      401,
      expect.stringContaining('error="invalid_token"'),
    ]);
    const bound = await refusal(
      createProtectedResource({
        ...options,
        fetch: portico({ ...live, cnf: { jkt: 'k' } }).fetch,
      }).verify('Bearer x'),
    );
    expect(bound.status).toBe(401);
    const narrow = await refusal(
      createProtectedResource({
        ...options,
        fetch: portico({ ...live, scope: 'openid' }).fetch,
      }).verify('Bearer x', ['notes.read']),
    );
    expect([narrow.status, narrow.wwwAuthenticate]).toEqual([
      403,
      expect.stringContaining('error="insufficient_scope", scope="notes.read"'),
    ]);
  });

  it('accepts only an access token of the clients the API names: another app’s token or a refresh token is 401', async () => {
    const verify = (
      claims: Record<string, unknown>,
      clients: ProtectedResourceOptions['clients'] = ['agent'],
    ) => createProtectedResource({ ...options, clients, fetch: portico(claims).fetch }).verify('Bearer x');
    // A token issued to another app the person consented to (a confused deputy otherwise).
    const other = await refusal(verify({ ...live, client_id: 'photo-printer' }));
    expect([other.status, other.wwwAuthenticate]).toEqual([
      401,
      expect.stringContaining('error="invalid_token"'),
    ]);
    expect((await refusal(verify({ ...live, client_id: undefined }))).status).toBe(401);
    // Portico answers a refresh token without token_type; any type but an access token's is refused.
    expect((await refusal(verify({ ...live, token_type: undefined }))).status).toBe(401);
    expect((await refusal(verify({ ...live, token_type: 'refresh_token' }))).status).toBe(401);
    // An audience the API accepts is as good as its client id.
    expect((await verify({ ...live, client_id: 'other', aud: ['agent'] })).sub).toBe('u');
    expect((await verify({ ...live, token_type: 'bearer' })).clientId).toBe('agent');
    // A function answers for clients registered later (an agent's dynamic registration).
    expect((await verify(live, async (id) => id === 'agent')).clientId).toBe('agent');
    expect((await refusal(verify(live, (id) => id === 'nobody'))).status).toBe(401);
  });

  it('needs the accepted clients named', () => {
    const { clients: _, ...without } = options;
    expect(() => createProtectedResource(without as never)).toThrow(/clients/);
    expect(() => createProtectedResource({ ...options, clients: [] })).toThrow(/clients/);
  });
});
