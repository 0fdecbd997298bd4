import fp from 'fastify-plugin';
import type { ClientApp } from '../../config';
import { PassportError } from '../../errors';

export interface ClientApps {
  /** Whether the server was given its apps (CLIENT_APPS); unset, every aid is accepted. */
  readonly configured: boolean;
  /** The app of an aid, when CLIENT_APPS names it. */
  find(aid: string): ClientApp | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    clientApps: ClientApps;
  }
}

/** Unknown aids logged so far: one warn line each, at most this many (a stranger may invent them). */
const LOGGED_MAX = 1000;

/**
 * The apps that call this server (CLIENT_APPS: aid → name, origins, default region). When they are
 * configured, a request whose `aid` query parameter names another app is refused with APP_UNKNOWN
 * (400, before any other check) and the server logs one warn line per unknown aid naming the setting,
 * so a wrong set-up is told apart from a person's mistake. Requests without an aid are not judged.
 */
export default fp(
  async (app) => {
    const byAid = new Map((app.config.clientApps ?? []).map((entry) => [entry.aid, entry]));
    const configured = app.config.clientApps !== undefined;
    app.decorate('clientApps', { configured, find: (aid: string) => byAid.get(aid) });
    if (!configured) return;
    const logged = new Set<string>();
    app.addHook('onRequest', async (request) => {
      const given = (request.query as Record<string, unknown> | undefined)?.aid;
      if (given === undefined) return;
      const aid = Array.isArray(given) ? String(given[0] ?? '') : String(given);
      if (byAid.has(aid)) return;
      const shown = aid.slice(0, 32);
      if (!logged.has(shown) && logged.size < LOGGED_MAX) {
        logged.add(shown);
        app.log.warn(
          { aid: shown },
          'a request names an app this server does not know: add its aid to CLIENT_APPS',
        );
      }
      throw new PassportError('appUnknown', { aid: shown });
    });
  },
  { name: 'client-apps' },
);
