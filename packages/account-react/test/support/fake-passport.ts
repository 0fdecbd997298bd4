import { type AccountClient, createAccountClient } from '@portico/account-sdk';
import { decodeMixedFields, errorText } from '@portico/account-sdk/protocol';

/** A request as the fake passport received it: the path, the method, the query and the decoded form body. */
export interface Received {
  path: string;
  method: string;
  /** The query string, where a GET carries its payload. */
  query: Record<string, string>;
  body: Record<string, string>;
}

/** What a route answers: the envelope (and optionally an HTTP status), or a thrown error for no response. */
export type Route = (request: Received) => unknown | Promise<unknown>;

export const ok = (data: unknown) => ({ message: 'success', data });
/** A failure as the passport sends it: by default with its catalogue text (zh, the default language). */
export const fail = (
  error_code: number,
  description = errorText(error_code, 'zh'),
  extra: Record<string, unknown> = {},
) => ({
  message: 'error',
  data: { error_code, description, ...extra },
});

export const signedInAccount = {
  user_id: '42',
  sec_user_id: 'sec-42',
  screen_name: 'Ada',
  name: 'Ada',
  avatar_url: '',
  mobile: '+86******5678',
  email: '',
  username: '',
  has_password: false,
  is_frozen: 0,
  session: { created_at: 1, expires_at: 2 },
};

/**
 * A test double of the passport's transport: a `fetch` handed to `createAccountClient` that answers
 * envelopes per path ('/passport/web/sms_login/' → route). Unknown paths answer NOT_FOUND (1005).
 */
export function fakePassport(routes: Record<string, Route>) {
  const received: Received[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.text();
    const body = decodeMixedFields(Object.fromEntries(new URLSearchParams(text))) as Record<string, string>;
    const query = Object.fromEntries(url.searchParams);
    const entry: Received = { path: url.pathname, method: request.method, query, body };
    received.push(entry);
    const route = routes[url.pathname];
    const answer = route ? await route(entry) : fail(1005, 'not found');
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-tt-logid': `log-${received.length}` },
    });
  };
  const client: AccountClient = createAccountClient({
    aid: 1128,
    baseUrl: 'https://passport.test',
    fetch: fetch as typeof globalThis.fetch,
    fingerprint: () => 'verify_test',
    document: { cookie: '' },
  });
  return {
    client,
    received,
    /** The requests made to one path. */
    to: (path: string) => received.filter((r) => r.path === path),
  };
}
