import { appBuild, appResolve, devProxy, emitRouteList, firstLoadBudget } from '@portico/app-routes/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where the passport server runs during `vite dev`; the API paths are proxied to it. */
const passport = process.env.PORTICO_PASSPORT_URL ?? 'http://localhost:3000';

export default defineConfig({
  // Served at /app/ by the passport: every asset URL starts with /app/.
  base: '/app/',
  plugins: [
    react(),
    // dist/routes.json: the router's page paths, which the passport server answers with index.html.
    emitRouteList(),
    // What the QR confirmation (the page a scan opens, on a phone network) loads first.
    firstLoadBudget({
      page: '/app/qr',
      modules: ['src/pages/qr.tsx'],
      // 125.3 KB with the person's language (measured 125.17 KB: ui_locales, the cookie the apps share
      // and the browser's languages in the store, the plugin that sends the language of the moment, and
      // the page title that follows the heading). 125.45 KB with enterprise sign-in's and the
      // organisation's second-factor codes in the one code table (measured 125.41 KB). 125.5 KB with
      // the SAML sign-in's codes there too (measured 125.47 KB). 125.8 KB with the language switch on
      // the phone's card, which saves the choice on the account (measured 125.67 KB with it alone). 126.1
      // KB with the dialog that sets up a factor an organisation requires (125.79 KB with it alone: the
      // controller's one open demand, the provider's third plugin; the panel and plugin are lazy;
      // measured 126.05 KB with all of them). 126.3 KB with the second-factor plugin attached at mount
      // rather than lazily (measured 126.29 KB). 126.35 KB with the shared component layer (measured
      // 126.29–126.30 KB: two builds of the same source differ by a few bytes at the edge). 126.45 KB
      // with the open-token and WeChat codes, the pending membership's field and the defaults the SDK
      // now honours among the vendor chunk's shared exports (measured 126.38 KB). 126 KB once the SMS
      // second-verification panel loads with its Radix Dialog frame when first opened (measured 125.86 KB).
      // 126.4 KB with the dialog's panel boundary (a panel that cannot load closes its request instead of
      // blanking the page), its loading status and the SMS panel's preload (measured 126.32 KB).
      budgetBytes: 126_400,
    }),
  ],
  resolve: appResolve,
  build: appBuild,
  server: {
    proxy: devProxy('app-webview', passport, ['/passport', '/vc', '/dev', '/web_id', '/monitor']),
  },
});
