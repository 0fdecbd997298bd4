/**
 * The apps the passport server serves and the route list each app's build writes. One list of apps
 * (read by the server's config and by the apps' dev servers) and one route-list format (written by the
 * Vite plugin in ./vite.ts, read by the server), so no router is ever copied by hand.
 */

/** An app the passport server serves: its built files under a mount path. */
export interface AppEntry {
  /** The app's name, as in its folder under apps/. */
  readonly name: string;
  /** Where its pages live: '/' or a prefix with slashes on both sides ('/sso/'). */
  readonly mount: string;
  /** The environment variable that overrides its build folder. */
  readonly distVariable: string;
  /** The environment variable that serves it at a host's root as well (SSO_HOST). */
  readonly hostVariable?: string;
}

/** The apps, most specific mount first. */
export const APPS: readonly AppEntry[] = [
  { name: 'sso', mount: '/sso/', distVariable: 'SSO_DIST', hostVariable: 'SSO_HOST' },
  { name: 'app-webview', mount: '/app/', distVariable: 'APP_WEBVIEW_DIST' },
  { name: 'web', mount: '/', distVariable: 'WEB_DIST' },
];

/** The file an app's build writes beside its index.html. */
export const ROUTE_LIST_FILE = 'routes.json';

/**
 * dist/routes.json: the app's page paths as react-router patterns, relative to its mount ('/login',
 * '/privacy-policy/:id?'). The app's catch-all (its not-found page) is left out: a path no pattern
 * matches is not a page.
 */
export interface RouteList {
  routes: string[];
}

/** The parts of a react-router route object the list is made from. */
export interface RouteLike {
  path?: string;
  index?: boolean;
  children?: RouteLike[];
}

const join = (base: string, path: string) =>
  path.startsWith('/') ? path : `${base.replace(/\/$/, '')}/${path}`.replace(/\/$/, '') || '/';

/** Every page pattern of a route tree: the full path of each route with a path or an index. */
export function routePatterns(routes: readonly RouteLike[], base = '/'): string[] {
  const out = new Set<string>();
  const visit = (list: readonly RouteLike[], parent: string) => {
    for (const route of list) {
      const full = route.path === undefined ? parent : join(parent, route.path);
      if (route.path !== undefined || route.index) out.add(full === '' ? '/' : full);
      if (route.children) visit(route.children, full);
    }
  };
  visit(routes, base);
  // The catch-all (`*` at the app's root) is the app's own not-found page, not a page of its own.
  out.delete('/*');
  return [...out].sort();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One pattern as a regular expression: `:param` is one segment, `?` makes a segment optional, `*` the rest. */
function patternSource(pattern: string): string {
  let source = '';
  for (const segment of pattern.split('/').filter(Boolean)) {
    const optional = segment.endsWith('?');
    const name = optional ? segment.slice(0, -1) : segment;
    const part = name === '*' ? '(?:/.*)?' : `/${name.startsWith(':') ? '[^/]+' : escapeRegExp(name)}`;
    source += optional && name !== '*' ? `(?:${part})?` : part;
  }
  return source;
}

/**
 * Whether a path (decoded, without query, relative to the app's mount) is one of the app's pages.
 * Case-insensitive like react-router's default; a trailing slash is ignored.
 */
export function routeMatcher(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const regex = new RegExp(`^(?:${patterns.map(patternSource).join('|')})/?$`, 'i');
  return (path) => regex.test(path);
}

/** A route list read from JSON, or an Error that says what is wrong with it. */
export function parseRouteList(json: string): RouteList {
  const value: unknown = JSON.parse(json);
  const routes = (value as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes) || !routes.every((r) => typeof r === 'string' && r.startsWith('/')))
    throw new Error('a route list is {"routes": ["/path", …]}');
  return { routes };
}
