import { fileURLToPath } from 'node:url';
import { appBuild, appResolve, devProxy, emitRouteList, firstLoadBudget } from '@portico/app-routes/vite';
import react from '@vitejs/plugin-react';
import license from 'rollup-plugin-license';
import { defineConfig } from 'vite';

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
    // What a visit to /login loads first (the entry and the login routes that src/router.tsx mounts
    // through createAuthRoutes): 125 KB brotli in issue 5, 126.5 KB since wave 2's account centre and
    // sign-in methods landed (docs/web.md says what grew and what would win it back); 126.75 KB with
    // the waitlist error range (measured 126.62 KB); 127.25 KB once the challenge, open-authorization and
    // app-identity codes and paths joined the error-code table and the path table (measured 127.02 KB);
    // then the mobile field's every-region picker (search, Intl.DisplayNames names, region keys, +0.5 KB;
    // the phone metadata itself is a lazy chunk, kept out of vendor by tools/app-routes' LAZY_ONLY) and
    // the monitoring wiring (account-pages' startMonitoring and the funnel reports, about 1 KB; @portico/monitor
    // and web-vitals load after first paint in their own chunk): 129 KB with every branch merged (measured 128.76 KB).
    // 129.5 KB once a code send refused with a long wait said how long and offered the password (measured
    // 129.36 KB, +0.48 KB: the SDK's cooldown after CODE_COOLDOWN, CodeInput's minutes, the rule and the
    // lazy hook of the notice, the tabs' focus after a switch; the notice and its texts are a lazy chunk).
    // 129.65 KB once the organisation, profile and cancellation screens moved into the packages (measured
    // 129.54 KB: the vendor chunk exports the account-react internals their lazy chunks import; the
    // screens, their hooks and the confirmation dialog are lazy, kept out of vendor by LAZY_ONLY).
    // 129.75 KB once the outbound gate's two refusals (SEND_COOLDOWN, SEND_LIMIT) joined the error
    // catalogue with their zh/en texts (measured 129.51 KB, +0.15 KB).
    // 129.8 KB with both (measured 129.67 KB: the moved screens' vendor exports and the two refusals; the
    // audit log's screens and query options are lazy, kept out of vendor by LAZY_ONLY).
    // 130.25 KB once the provider answers a step-up (measured 130.11 KB: the dialog's controller and
    // dispatch, STEP_UP_REQUIRED's code and texts, reverify; the step-up plugin and panel are lazy chunks).
    // 130.6 KB once second verification offered an account's other factors (measured 130.56 KB: the
    // factor error codes and paths, the plugin's `methods` and the lazy switch to the factor picker; the
    // picker, its texts, the factor calls and hooks are lazy chunks, kept out of vendor by LAZY_ONLY).
    // 130.75 KB with passkeys (measured 130.59 KB, +0.48 KB: the passkey error range's codes, the vendor
    // exports of the account-react internals the lazy passkey chunk imports, the identifier fields'
    // autocomplete; @simplewebauthn/browser, the SDK's ceremonies and the passkey hooks are lazy, kept out
    // of vendor by LAZY_ONLY, and load after the panel).
    firstLoadBudget({
      page: '/login',
      modules: [
        '../../packages/account-pages/src/screens/login-layout.tsx',
        '../../packages/account-pages/src/screens/login.tsx',
      ],
      // 131.25 KB with both, factors and passkeys (measured 131.10 KB): each grew the vendor chunk's
      // shared exports and the code tables. The recent sign-in changes added 0.20 KB (their two paths in
      // the path table and the vendor exports of the call, query and mutation the account-security chunk
      // imports); a passkey and an e-mail code answering a second verification 0.25 KB (the
      // second-verify plugin's e-mail send, masked e-mail and passkey credential, the passkey factor's
      // path; the dialog's passkey ceremony and its texts are lazy chunks); the enterprise sign-in
      // range's codes and the console's new hooks among the vendor chunk's shared exports 0.20 KB. 132.4 KB
      // with the person's language (measured 132.31 KB: ui_locales, the shared cookie and the browser's
      // languages in the store, the plugin that sends the language of the moment, the page title).
      // 132.6 KB with the SAML and SCIM codes in the one code table (measured 132.46 KB). 133.3 KB with
      // the saved language (measured 133.17 KB: the header's switch saves the choice while signed in,
      // and the sign-in screens take the account's language before they go on).
      // 132.7 KB with the dialog that sets up a factor an organisation requires (measured 132.64 KB: the
      // controller's one open demand, the provider's third plugin; the panel and plugin are lazy). 133.5 KB
      // with all three (measured 133.45 KB). 134.5 KB once the
      // organisation console showed enterprise sign-in's refusals in the page's language (+0.9 KB: the
      // 24xx texts the lazy console chunk imports sit in the SDK's error-texts module, which the vendor
      // chunk holds; splitting them out still left them reachable from vendor; measured 134.46 KB). 134.7 KB
      // with the second-factor plugin attached at mount rather than lazily (measured 134.65 KB). 134.8 KB
      // with name suggestions in the page's language and the tables' keyboard-scrollable box among the
      // shared exports (measured 134.72 KB). 134.9 KB with the open-token and WeChat codes and the
      // defaults the SDK now honours (measured 134.85 KB). 142.3 KB with the tabs on Radix Tabs (measured
      // 142.15 KB: the tabs' chunks grew from 0.62 to 8.72 KB, Radix Tabs with its roving focus,
      // collection and presence and the primitives they share with the dialogs; the vendor chunk lost
      // 0.72 KB, the SMS second-verification panel, which now loads with the Radix Dialog frame when a
      // second verification first opens; docs/web.md, "Components"). 142.7 KB with the dialog's panel
      // boundary (a panel that cannot load closes its request instead of blanking the page), its loading
      // status and texts, and the SMS panel's preload (measured 142.66 KB).
      budgetBytes: 142_700,
    }),
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
  resolve: appResolve,
  build: appBuild,
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
