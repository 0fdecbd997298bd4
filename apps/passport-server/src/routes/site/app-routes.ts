import { paths } from '../../protocol';

/** Path families of the API, matched in any case: /PASSPORT/… is still an API path. */
const API_FAMILIES = new Set(['passport', 'vc', 'dev', 'docs', '.well-known', 'web', 'user', 'monitor']);

/**
 * Whether a path belongs to the API, never to an app at the root: the families above, and the first segment
 * of every path in the protocol tables (legacy root paths, the app API names…) or of a route the server
 * has, as spelled there. Those single names match exactly: the app API's /Login is not the page /login.
 */
export function apiPathTest(routeUrls: Iterable<string>): (path: string) => boolean {
  const roots = new Set<string>();
  const add = (url: string) => {
    const first = url.split('/')[1];
    if (first && !first.startsWith(':') && first !== '*') roots.add(first);
  };
  for (const family of Object.values(paths)) for (const url of Object.values(family)) add(url);
  for (const url of routeUrls) add(url);
  return (path) => {
    const first = path.split('/')[1] ?? '';
    return API_FAMILIES.has(first.toLowerCase()) || roots.has(first);
  };
}

/**
 * The request path, percent-decoded, with empty and '.' segments dropped: '/a//b/./c/' → '/a/b/c'.
 * null when it cannot name a page or a file: undecodable, a NUL or a backslash, or a '..' segment.
 */
export function pagePath(url: string): string | null {
  const raw = url.split('?', 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (/[\0\\]/.test(decoded)) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return null;
  return `/${segments.join('/')}`;
}

/** A page load: a browser navigation says text/html, curl and the like say any type. */
export function acceptsPage(accept: string | undefined): boolean {
  return typeof accept === 'string' && /(^|,)\s*(text\/html|\*\/\*)\s*(;|,|$)/i.test(accept);
}
