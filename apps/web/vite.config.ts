import { fileURLToPath } from 'node:url';
import { devProxy, emitRouteList } from '@portico/app-routes/vite';
import react from '@vitejs/plugin-react';
import license from 'rollup-plugin-license';
import { defaultClientConditions, defineConfig } from 'vite';

const dist = fileURLToPath(new URL('./dist', import.meta.url));
/** Where the passport server runs during `vite dev`; the API paths are proxied to it. */
const passport = process.env.PORTICO_PASSPORT_URL ?? 'http://localhost:3000';

interface NoticeDependency {
  name: string | null;
  version: string | null;
  license: string | null;
  licenseText: string | null;
  repository: string | { url: string } | null;
  homepage: string | null;
}

/** https URLs only: `git+https://…git` and `github:owner/name` become links, anything else none. */
function repositoryUrl(dependency: NoticeDependency): string | null {
  const raw = typeof dependency.repository === 'string' ? dependency.repository : dependency.repository?.url;
  const shorthand = raw && /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (shorthand) return `https://github.com/${shorthand[1]}`;
  const url = (raw ?? dependency.homepage ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
  return /^https:\/\/[^\s]+$/.test(url) ? url : null;
}

export default defineConfig({
  plugins: [
    react(),
    // dist/routes.json: the router's page paths, which the passport server answers with index.html.
    emitRouteList(),
    // The open-source notice: the licences of the packages actually present in the bundle, written at
    // build time for the legal/open-source-notice route. A licence outside the allow-list fails the build.
    license({
      thirdParty: {
        includePrivate: false,
        allow: {
          test: '(MIT OR ISC OR Apache-2.0 OR BSD-2-Clause OR BSD-3-Clause OR 0BSD)',
          failOnUnlicensed: true,
          failOnViolation: true,
        },
        output: {
          file: `${dist}/open-source-notice.json`,
          template: (dependencies: NoticeDependency[]) =>
            JSON.stringify(
              dependencies
                .map((dependency) => ({
                  name: dependency.name ?? '',
                  version: dependency.version ?? '',
                  license: dependency.license ?? '',
                  licenseText: dependency.licenseText?.trim() || null,
                  repository: repositoryUrl(dependency),
                }))
                .sort((a, b) => a.name.localeCompare(b.name)),
              null,
              1,
            ),
        },
      },
    }),
  ],
  resolve: {
    // Workspace packages are bundled from their TypeScript source (their `source` export condition).
    conditions: ['source', ...defaultClientConditions],
  },
  build: {
    target: 'es2022',
    // The budget check (scripts/check-budget.mjs) reads which chunks each route loads from here.
    manifest: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks compress better: the libraries every page needs (React, the router, React
        // Query, the account SDK and its React layer) go in one vendor chunk. The captcha loader stays
        // its own chunk, loaded on the first challenge (src/lib/account.ts).
        codeSplitting: {
          groups: [{ name: 'vendor', test: /node_modules|packages[\\/](account-sdk|account-react)[\\/]/ }],
        },
      },
    },
  },
  server: {
    // The API, and the other apps' mounts (/sso), go to the passport server, which serves their builds.
    proxy: devProxy('web', passport, [
      '/passport',
      '/vc',
      '/dev',
      '/docs',
      '/web_id',
      '/monitor',
      '/.well-known',
    ]),
  },
});
