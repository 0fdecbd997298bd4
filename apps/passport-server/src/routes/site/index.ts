import { stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { acceptsPage, apiPathTest, isAppRoute, pagePath } from './app-routes';
import legal from './legal';

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

export interface SiteOptions {
  /** How the API answers a path nobody serves: the JSON 404 envelope. */
  apiNotFound: Handler;
}

/** Hashed file names never change content: cached for a year. Everything else revalidates. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the built web app (config.webDist) from the not-found handler, so the API's route inventory,
 * and every test that walks it, is unchanged:
 *
 * - a GET or HEAD of a file in the build: the file (brotli or gzip when the build has it and the browser
 *   accepts it); hashed assets cached for a year, index.html and other files revalidated;
 * - a page load (Accept: text/html or any type) of a path in the app's route table: index.html, and the
 *   app's router takes over;
 * - a page load of any other path outside the API families: a plain-text 404;
 * - anything else (API paths, other methods, clients that do not ask for a page): the JSON 404
 *   envelope, as before.
 *
 * The build is looked up per request, so building the app while the server runs needs no restart;
 * without a build, app pages answer a plain-text 503 that says how to build it.
 */
export default fp(
  async (app, options: SiteOptions) => {
    const dist = app.config.webDist;
    const built = await isFile(join(dist, 'index.html'));
    if (built) app.log.info({ webDist: dist }, 'serving the web app');
    else
      app.log.warn(
        { webDist: dist },
        'the web app is not built, so its pages answer 503: run `pnpm --filter @portico/web build` (or set WEB_DIST)',
      );

    await app.register(fastifyStatic, {
      root: dist,
      serve: false,
      preCompressed: true,
      cacheControl: false,
      dotfiles: 'deny',
      index: false,
      suppressWarning: true,
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.startsWith(`${dist}${sep}assets${sep}`) ? IMMUTABLE : REVALIDATE);
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
      isApiPath ??= apiPathTest(app.routeInventory.map((route) => route.url));
      if (path === null || isApiPath(path)) return options.apiNotFound(request, reply);
      seen.add(request);

      const file = path.split('/').some((segment) => segment.startsWith('.')) ? null : join(dist, path);
      if (file && path !== '/' && (await isFile(file))) return reply.sendFile(path.slice(1));
      if (!acceptsPage(request.headers.accept)) return options.apiNotFound(request, reply);
      if (!isAppRoute(path)) return plainNotFound(reply);
      if (!(await isFile(join(dist, 'index.html'))))
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send(
            'The Portico web app is not built yet: run `pnpm --filter @portico/web build`, then reload.\n',
          );
      return reply.sendFile('index.html');
    });
  },
  { name: 'site' },
);

function plainNotFound(reply: FastifyReply) {
  return reply.code(404).type('text/plain; charset=utf-8').send('404 Not Found\n');
}
