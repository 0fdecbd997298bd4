import type { CookieDocument } from '../client/types';

/** A cookie jar for the SDK outside a browser (Node, a worker, a test): what a browser would keep. */
export interface CookieJar {
  /** Pass as `fetch` to `createAccountClient`: sends the jar's cookies and keeps what the server sets. */
  readonly fetch: typeof fetch;
  /**
   * Pass as `document` to `createAccountClient`: what a page's script could read (HttpOnly cookies are
   * left out), so the SDK copies the CSRF cookie into its header as it does in a browser.
   */
  readonly document: CookieDocument;
  /** Every cookie held, HttpOnly ones included (name → value): to persist a session, say. */
  readonly cookies: ReadonlyMap<string, string>;
}

export interface CookieJarOptions {
  /** The fetch underneath. Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
}

const MAX_REDIRECTS = 5;

/**
 * A cookie jar for one passport origin, for the SDK in Node:
 *
 * ```ts
 * const jar = createCookieJar();
 * const client = createAccountClient({ aid: 1128, baseUrl, fetch: jar.fetch, document: jar.document });
 * ```
 *
 * It keeps the cookies the server sets (at every redirect hop, as a browser does), sends them back,
 * drops those the server expires, shows the SDK only the ones a script could read, and marks its
 * requests `Sec-Fetch-Site: same-origin` (they are its owner's own, never a foreign page's). One jar is one
 * browser: keep one per person, and one per passport origin (it does not sort cookies by domain).
 */
export function createCookieJar(options: CookieJarOptions = {}): CookieJar {
  const held = new Map<string, { value: string; httpOnly: boolean }>();
  const underlying = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  const store = (line: string, fromServer: boolean) => {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attrs = attributes.map((a) => a.toLowerCase());
    const maxAge = attrs.find((a) => a.startsWith('max-age='));
    const expires = attrs.find((a) => a.startsWith('expires='));
    const expired =
      value === '' ||
      (maxAge !== undefined && Number(maxAge.slice(8)) <= 0) ||
      (expires !== undefined && new Date(expires.slice(8)).getTime() <= Date.now());
    if (expired) held.delete(name);
    else held.set(name, { value, httpOnly: fromServer && attrs.includes('httponly') });
  };

  const jarFetch: typeof fetch = async (input, init) => {
    let request = new Request(input, init);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const headers = new Headers(request.headers);
      const cookie = [...held].map(([name, c]) => `${name}=${c.value}`).join('; ');
      if (cookie) headers.set('cookie', cookie);
      // No other site can make this process send a request: say so as a browser does for a page of the
      // passport's own origin (the server answers a GET logout without it with a confirmation page).
      if (!headers.has('sec-fetch-site')) headers.set('sec-fetch-site', 'same-origin');
      const response = await underlying(new Request(request, { headers, redirect: 'manual' }));
      for (const line of response.headers.getSetCookie()) store(line, true);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location || request.redirect === 'manual')
        return response;
      request = new Request(new URL(location, request.url), { method: 'GET' });
    }
    throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
  };

  return {
    fetch: jarFetch,
    document: {
      get cookie() {
        return [...held]
          .filter(([, c]) => !c.httpOnly)
          .map(([name, c]) => `${name}=${c.value}`)
          .join('; ');
      },
      set cookie(line: string) {
        store(line, false);
      },
    },
    get cookies() {
      return new Map([...held].map(([name, c]) => [name, c.value]));
    },
  };
}
