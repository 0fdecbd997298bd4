import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

/** One registered route as Fastify's onRoute hook saw it: what the security tests walk. */
export interface InventoryRoute {
  /** One method per entry (a route registered for GET and POST appears twice). */
  method: string;
  /** The full URL pattern with its prefix, e.g. `/passport/web/send_code/` or `/docs/static/*`. */
  url: string;
  schema: FastifySchema | undefined;
  config: RouteOptions['config'];
  /** The route's own body limit, when it sets one (the server's default applies otherwise). */
  bodyLimit: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route registered on this server, in registration order. The CSRF, authorization and
     * bad-input tests derive their cases from it, so a route that nobody tested still gets tested.
     */
    readonly routeInventory: readonly InventoryRoute[];
  }
}

/** Starts recording routes; call it on the root instance before any route or plugin is registered. */
export function collectRoutes(app: FastifyInstance): void {
  const routes: InventoryRoute[] = [];
  app.decorate('routeInventory', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      routes.push({
        method: String(method).toUpperCase(),
        url: route.url,
        schema: route.schema,
        config: route.config,
        bodyLimit: route.bodyLimit,
      });
    }
  });
}
