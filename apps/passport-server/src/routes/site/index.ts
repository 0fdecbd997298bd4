import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { acceptsPage, apiPathTest, pagePath } from './app-routes';
import legal from './legal';
import {
  buildCommand,
  buildOf,
  cacheControlOf,
  hostName,
  isFile,
  landing,
  notBuilt,
  sendAppIndex,
} from './mounts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

export interface SiteOptions {
  /** How the API answers a path nobody serves: the JSON 404 envelope. */
  apiNotFound: Handler;
}

/** Hashed file names never change content: cached for a year. Everything else revalidates. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/**
 * Serves the built apps (config.apps: web at '/', sso at '/sso/' and at SSO_HOST's root) from the
 * not-found handler, so the API's route inventory, and every test that walks it, is unchanged:
 *
 * - a GET or HEAD of a file in the app's build: the file (brotli or gzip when the build has it and the
 *   browser accepts it); hashed assets cached for a year, index.html and other files revalidated;
 * - a page load (Accept: text/html or any type) of a path in the app's route list (dist/routes.json,
 *   written by its build from its router): index.html, and the app's router takes over;
 * - a page load of any other path outside the API families: a plain-text 404;
 * - anything else (API paths, other methods, clients that do not ask for a page): the JSON 404
 *   envelope, as before.
 *
 * Builds are looked up per request, so building an app while the server runs needs no restart;
 * without a build (or a build without its route list), the app's page loads answer a plain-text 503
 * that says how to build it.
 */
export default fp(
  async (app, options: SiteOptions) => {
    const { apps } = app.config;
    for (const served of apps) {
      const build = await buildOf(served);
      const where = { app: served.name, mount: served.mount, dist: served.dist, host: served.host };
      if (build.built && build.isPage) app.log.info(where, `serving the ${served.name} app`);
      else
        app.log.warn(
          where,
          `the ${served.name} app is not built, so its pages answer 503: run \`${buildCommand(served)}\``,
        );
    }

    const assetFolders = apps.map((served) => `${join(served.dist, 'assets')}${sep}`);
    await app.register(fastifyStatic, {
      // Every file is sent with its app's build folder as the root (reply.sendFile(path, dist)).
      root: apps[0]?.dist ?? process.cwd(),
      serve: false,
      preCompressed: true,
      cacheControl: false,
      dotfiles: 'deny',
      index: false,
      suppressWarning: true,
      setHeaders: (reply, path) => {
        const chosen = cacheControlOf.get(reply);
        if (chosen) return void reply.header('cache-control', chosen);
        const hashed = assetFolders.some((folder) => path.startsWith(folder));
        reply.header('cache-control', hashed ? IMMUTABLE : REVALIDATE);
      },
    });
    await app.register(legal);

    let isApiPath: ((path: string) => boolean) | undefined;
    /** Requests already passed through here once: a file that vanished mid-send must not loop. */
    const seen = new WeakSet<FastifyRequest>();

    app.setNotFoundHandler(async (request, reply) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || seen.has(request))
        return seen.has(request) ? plainNotFound(reply) : options.apiNotFound(request, reply);
      const path = pagePath(request.url);
      // A route of one host only (the sso pages at SSO_HOST's root) makes no path an API path elsewhere.
      isApiPath ??= apiPathTest(app.routeInventory.filter((r) => !r.config?.onlyHost).map((r) => r.url));
      if (path === null) return options.apiNotFound(request, reply);
      const target = landing(apps, hostName(request.headers.host), path);
      if (!target || (target.atRoot && isApiPath(path))) return options.apiNotFound(request, reply);
      seen.add(request);

      const { app: served, path: inner } = target;
      const file = inner.split('/').some((segment) => segment.startsWith('.')) ? null : inner;
      if (file && file !== '/' && (await isFile(join(served.dist, file))))
        return reply.sendFile(file.slice(1), served.dist);
      if (!acceptsPage(request.headers.accept)) return options.apiNotFound(request, reply);
      const build = await buildOf(served);
      if (!build.built) return notBuilt(reply, served);
      if (!build.isPage) return notBuilt(reply, served, 'was built without its route list (routes.json)');
      if (!build.isPage(inner)) return plainNotFound(reply);
      return sendAppIndex(reply, served);
    });
  },
  { name: 'site' },
);

function plainNotFound(reply: FastifyReply) {
  return reply.code(404).type('text/plain; charset=utf-8').send('404 Not Found\n');
}
