import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRouteList, ROUTE_LIST_FILE, routeMatcher } from '@portico/app-routes';
import type { FastifyReply } from 'fastify';
import type { AppMount } from '../../config';

/** Where a request lands: an app, and the path inside it (relative to its mount). */
export interface Landing {
  app: AppMount;
  path: string;
  /** The app is served at the root here ('/' mount or its host): API paths come first. */
  atRoot: boolean;
}

/** The Host header's name, lower-cased, without its port. */
export function hostName(host: string | undefined): string {
  return (host ?? '').toLowerCase().replace(/:\d+$/, '');
}

/**
 * The app a path belongs to: an app whose mount prefixes the path (on any host, so an app served by
 * host still finds its assets under its mount), else the app served at this host's root, else the
 * app mounted at '/'. Mounts compare case-insensitively, like the apps' routers.
 */
export function landing(apps: readonly AppMount[], host: string, path: string): Landing | null {
  const lower = path.toLowerCase();
  for (const app of apps) {
    if (app.mount === '/') continue;
    const prefix = app.mount.toLowerCase();
    if (lower === prefix.slice(0, -1) || lower.startsWith(prefix))
      return { app, path: path.slice(app.mount.length - 1) || '/', atRoot: false };
  }
  const byHost = apps.find((app) => app.host !== undefined && app.host === host);
  if (byHost) return { app: byHost, path, atRoot: true };
  const root = apps.find((app) => app.mount === '/');
  return root ? { app: root, path, atRoot: true } : null;
}

/** What an app's build holds: whether it is built, and which paths are its pages. */
export interface Build {
  built: boolean;
  /** null when the build has no route list (built before route lists existed). */
  isPage: ((path: string) => boolean) | null;
}

const cache = new Map<string, { mtimeMs: number; isPage: (path: string) => boolean }>();

/**
 * The app's build, looked up per request so that building an app while the server runs needs no
 * restart; the route list is parsed again only when its file changes.
 */
export async function buildOf(app: AppMount): Promise<Build> {
  const built = await isFile(join(app.dist, 'index.html'));
  const file = join(app.dist, ROUTE_LIST_FILE);
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(file)).mtimeMs;
  } catch {
    return { built, isPage: null };
  }
  const cached = cache.get(file);
  if (cached?.mtimeMs === mtimeMs) return { built, isPage: cached.isPage };
  try {
    const isPage = routeMatcher(parseRouteList(await readFile(file, 'utf8')).routes);
    cache.set(file, { mtimeMs, isPage });
    return { built, isPage };
  } catch {
    return { built, isPage: null };
  }
}

export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The build command of an app, for the messages that say how to build it. */
export const buildCommand = (app: AppMount) => `pnpm --filter @portico/${app.name} build`;

/** A plain-text 503 that says how to build the app. */
export function notBuilt(reply: FastifyReply, app: AppMount, why = 'is not built yet') {
  return reply
    .code(503)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`The Portico ${app.name} app ${why}: run \`${buildCommand(app)}\`, then reload.\n`);
}

/**
 * The app's index.html: its router takes over in the browser. `cacheControl` is no-cache for the
 * app's pages and no-store where the server decided on the session (the sso sign-in page).
 */
export async function sendAppIndex(reply: FastifyReply, app: AppMount, cacheControl = 'no-cache') {
  if (!(await isFile(join(app.dist, 'index.html')))) return notBuilt(reply, app);
  cacheControlOf.set(reply, cacheControl);
  return reply.sendFile('index.html', app.dist);
}

/** The Cache-Control a sent file gets when its sender chose one (the static plugin's setHeaders reads it). */
export const cacheControlOf = new WeakMap<FastifyReply, string>();
