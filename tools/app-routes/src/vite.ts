import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APPS, ROUTE_LIST_FILE, type RouteLike, type RouteList, routePatterns } from '@portico/app-routes';
import {
  type BuildEnvironmentOptions,
  createServer,
  defaultClientConditions,
  type Plugin,
  type ResolvedConfig,
} from 'vite';

export { type FirstLoadBudget, firstLoadBudget } from '@portico/app-routes/budget';

/** Workspace packages are bundled from their TypeScript source (their `source` export condition). */
export const appResolve = { conditions: ['@portico/source', ...defaultClientConditions] };

/**
 * What goes in the vendor chunk: every package, and the SDK and its React layer — except what only a
 * lazily loaded part needs: the QR sign-in tab's QR library (`qrcode` and its `dijkstrajs`) and the
 * QR flow and calls (`account-sdk/src/flows/qr-login.ts`, `calls/qrcode.ts`, `account-react/src/qr/`), which
 * stay in the chunk of the QR tab (or of the page that uses them); and the monitor (`@portico/monitor`
 * and `web-vitals`), imported after first paint by account-pages' `startMonitoring`; and `uplot`, the
 * chart library of the operator's monitoring screen, with that screen's and the developer console's
 * calls and hooks (`account-react/src/operator/`); and the confirmation dialog of the account centre and
 * organisation console (Radix AlertDialog and the focus and scroll locks it brings) with the organisation
 * profile and audit-log hooks (`account-react/src/{organisations,profile,audit}/`), which load with those
 * pages; and the step-up plugin (`account-sdk/src/plugins/step-up.ts`, attached by account-react's
 * `attach-step-up` after the provider mounts) and panel (`step-up-panel`, loaded when a step-up first
 * opens); and the second-verification dialog's frame and SMS panel (`dialog-shell`, `dialog-frame`,
 * `sms-panel`, `sms-code`, with Radix Dialog), loaded when a second verification first opens; and the
 * authenticator app and recovery codes: their calls and hooks (`calls/factors.ts`,
 * `account-react/src/factors/`) and the dialog's factor picker (`factor-panel`, `factor-fields`), loaded
 * when an account with those factors opens it, and the panel that sets up a factor an organisation
 * requires (`enrol-panel`), loaded when one first asks.
 * The passkeys too (`@simplewebauthn/browser`, the SDK's passkey calls and ceremonies, account-react's
 * passkey hooks), which load with the sign-in page's passkey part and the security page.
 * A package path is tested at each `node_modules/` (pnpm nests them: `.pnpm/qrcode@…/node_modules/qrcode`).
 */
const LAZY_ONLY =
  /node_modules[\\/](?:\.pnpm[\\/])?(?:qrcode|dijkstrajs|web-vitals|uplot)[@\\/]|packages[\\/]monitor[\\/]|account-sdk[\\/]src[\\/](?:flows[\\/]qr-login|calls[\\/]qrcode)|account-react[\\/]src[\\/]qr[\\/]|account-(?:sdk|react)[\\/]src[\\/](?:(?:calls|redirects)[\\/])?third-party|account-sdk[\\/]src[\\/](?:calls[\\/](?:profile|bind|mobile)\.ts|user-token[\\/])|account-react[\\/]src[\\/](?:identifiers|user-token)[\\/]|node_modules[\\/](?:\.pnpm[\\/])?libphonenumber-js[@\\/]|account-react[\\/]src[\\/]forms[\\/]regions\.|node_modules[\\/](?:@radix-ui|react-remove-scroll(?:-bar)?|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es)[\\/]|account-react[\\/]src[\\/](?:organisations[\\/]|profile[\\/]|audit[\\/]|operator[\\/]|touching-mutation\.)|account-react[\\/]src[\\/]second-verify[\\/](?:step-up-panel|attach-step-up|factor-panel|factor-fields|enrol-panel|sms-panel|sms-code|dialog-shell|dialog-frame)\.|account-react[\\/]src[\\/]factors[\\/]|account-sdk[\\/]src[\\/]calls[\\/]factors\.|account-sdk[\\/]src[\\/]plugins[\\/]step-up\.|node_modules[\\/](?:\.pnpm[\\/])?@simplewebauthn[+\\/]|account-sdk[\\/]src[\\/](?:passkeys[\\/]|calls[\\/]passkeys\.)|account-react[\\/]src[\\/]passkeys[\\/]/;
const VENDOR_PATH = /node_modules|packages[\\/](account-sdk|account-react)[\\/]/;
const VENDOR = (id: string): boolean => VENDOR_PATH.test(id) && !LAZY_ONLY.test(id);

/**
 * The build every app shares. Fewer, larger chunks compress better: the libraries every page needs
 * (React, the router, React Query, the account SDK and its React layer) go in one vendor chunk; the
 * captcha loader stays its own chunk, loaded on the first challenge (and third-party sign-in's calls
 * and hooks go with the pages that use them). The manifest is what
 * `firstLoadBudget` reads.
 */
export const appBuild: BuildEnvironmentOptions = {
  target: 'es2022',
  manifest: true,
  sourcemap: true,
  rolldownOptions: {
    output: {
      codeSplitting: {
        groups: [{ name: 'vendor', test: VENDOR }],
      },
    },
  },
};

export interface RouteListOptions {
  /** The module that exports the app's route table, from the app's root. Default `src/router.tsx`. */
  module?: string;
  /** The name of that export (react-router route objects). Default `routes`. */
  exportName?: string;
}

/**
 * Writes dist/routes.json after a build: the page patterns of the app's own route table, read by
 * evaluating the router module (lazy route modules are never loaded), so the list is the router's and
 * nobody keeps a copy. The modules are evaluated in Node as on a page at http://localhost: an app may
 * create its account client at import time, which wants a page origin.
 */
export function emitRouteList(options: RouteListOptions = {}): Plugin {
  const module = options.module ?? 'src/router.tsx';
  const exportName = options.exportName ?? 'routes';
  let config: ResolvedConfig;
  return {
    name: 'portico:route-list',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      if (config.build.ssr) return;
      const routes = await readRouteTable(config, module, exportName);
      const list: RouteList = { routes: routePatterns(routes) };
      const outDir = join(config.root, config.build.outDir);
      await mkdir(outDir, { recursive: true });
      await writeFile(join(outDir, ROUTE_LIST_FILE), `${JSON.stringify(list, null, 1)}\n`);
      config.logger.info(`route list: ${list.routes.length} page patterns in ${ROUTE_LIST_FILE}`);
    },
  };
}

async function readRouteTable(
  config: ResolvedConfig,
  module: string,
  exportName: string,
): Promise<RouteLike[]> {
  const g = globalThis as { location?: unknown };
  const hadLocation = 'location' in g;
  if (!hadLocation) g.location = new URL('http://localhost/');
  const server = await createServer({
    configFile: false,
    root: config.root,
    logLevel: 'silent',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    resolve: { conditions: [...config.resolve.conditions] },
    // Workspace packages are TypeScript source (their `@portico/source` condition): transform them too.
    ssr: {
      noExternal: [/^@portico\//],
      resolve: { conditions: ['@portico/source'], externalConditions: ['@portico/source'] },
    },
  });
  try {
    const loaded = await server.ssrLoadModule(`/${module}`);
    const routes = loaded[exportName];
    if (!Array.isArray(routes))
      throw new Error(`${module} must export its route objects as \`${exportName}\` (an array)`);
    return routes as RouteLike[];
  } finally {
    await server.close();
    if (!hadLocation) delete g.location;
  }
}

/**
 * The dev server's proxy for one app: the passport server's API families plus every other app's mount,
 * so `vite dev` of one app reaches the others through the passport server that serves their builds.
 */
export function devProxy(self: string, target: string, apiPrefixes: readonly string[]) {
  const mounts = APPS.filter((app) => app.name !== self && app.mount !== '/').map((app) =>
    app.mount.replace(/\/$/, ''),
  );
  return Object.fromEntries([...apiPrefixes, ...mounts].map((prefix) => [prefix, target]));
}
