import { describe, expect, it } from 'vitest';
import { createManagementClient, ManagementError } from '../src';
import { API_SCOPES, MANAGEMENT_CALLS } from '../src/protocol';

/** A fetch that records what it was asked and answers as told (the real server: the passport's suite). */
function fakeFetch(status: number, body: unknown) {
  const asked: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: URL | string, init: RequestInit = {}) => {
    asked.push({ url: String(url), init });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': status < 400 ? 'application/json' : 'application/problem+json' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

describe('createManagementClient', () => {
  it('sends the key as a bearer token to the documented path, with the query', async () => {
    const { fetch, asked } = fakeFetch(200, { users: [], next_cursor: null });
    const client = createManagementClient({
      baseUrl: 'https://passport.example.com/',
      apiKey: 'portico_sk_k',
      fetch,
    });
    expect(await client.users.list({ query: '+86', limit: 5 })).toEqual({ users: [], next_cursor: null });
    expect(asked[0]?.url).toBe('https://passport.example.com/api/v1/users?query=%2B86&limit=5');
    expect(new Headers(asked[0]?.init.headers).get('authorization')).toBe('Bearer portico_sk_k');
  });

  it('rejects with the problem details the server answered', async () => {
    const problem = {
      type: 'about:blank',
      title: 'INSUFFICIENT_SCOPE',
      status: 403,
      detail: 'no',
      code: 1014,
      name: 'INSUFFICIENT_SCOPE',
    };
    const { fetch, asked } = fakeFetch(403, problem);
    const client = createManagementClient({ baseUrl: 'https://p.example.com', apiKey: 'k', fetch });
    const error = await client.users.freeze('a/b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementError);
    expect(error).toMatchObject({ status: 403, code: 1014, errorName: 'INSUFFICIENT_SCOPE', problem });
    expect(asked[0]?.url).toBe('https://p.example.com/api/v1/users/a%2Fb/freeze');
    expect(asked[0]?.init.method).toBe('POST');
  });

  it('names a scope for every call, from the published list', () => {
    for (const call of Object.values(MANAGEMENT_CALLS)) expect(API_SCOPES).toContain(call.scope);
  });
});
