import { appBuild, appResolve, devProxy, emitRouteList, firstLoadBudget } from '@portico/app-routes/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where the passport server runs during `vite dev`; the API paths are proxied to it. */
const passport = process.env.PORTICO_PASSPORT_URL ?? 'http://localhost:3000';

export default defineConfig({
  // Served at /sso/ by the passport (and, with SSO_HOST, at that host's root, where /sso/ still holds
  // the files): every asset URL starts with /sso/.
  base: '/sso/',
  plugins: [
    react(),
    // dist/routes.json: the router's page paths, which the passport server answers with index.html.
    emitRouteList(),
    // What /sso/login loads first, with the web app's first budget: the sign-in is the same screen. 125.5 KB
    // since a long wait for a code offers the password (measured 125.21 KB; docs/web.md, "A long wait").
    // 126 KB once the provider answers a step-up (STEP_UP_REQUIRED) with its dialog (measured 125.68 KB:
    // the dialog's controller and dispatch, the code and its texts; the step-up plugin and panel are lazy).
    firstLoadBudget({
      page: '/sso/login',
      modules: [
        '../../packages/account-pages/src/screens/login-layout.tsx',
        '../../packages/account-pages/src/screens/login.tsx',
      ],
      // 126.1 KB once second verification offered an account's other factors (measured 126.05 KB: the
      // factor error codes and paths, the plugin's `methods`, the lazy switch to the factor picker).
      // 126.3 KB with CROSS_SITE_PAGE's texts and the management API's code table (measured 126.23 KB;
      // the management API's texts are in a range of their own, off this page).
      // 126.6 KB with the factors' and passkeys' code tables and shared vendor exports beside it
      // (measured 126.54 KB).
      // 126.75 KB with the enterprise sign-in range's codes (measured 126.70 KB; its texts are off this
      // page, but the codes join the one code table). 127 KB with the passkey and e-mail second factors
      // and the recent sign-in changes beside them (measured 126.92 KB: the second-verify plugin's e-mail
      // send and passkey credential, and their paths). 127.6 KB with the person's language (measured
      // 127.48 KB: ui_locales, the shared cookie and the browser's languages in the store, the plugin
      // that sends the language of the moment, and the page title that follows the heading). 127.8 KB
      // with enterprise sign-in's and the organisation's second-factor codes in the one code table
      // (measured 127.78 KB). 128 KB with the SAML and SCIM codes in the one code table (measured
      // 127.94 KB). 128.1 KB with the saved language's call (measured 128.02 KB). 128.35 KB with the
      // dialog that sets up a factor an organisation requires (measured 128.30 KB: the controller's one
      // open demand, the provider's third plugin; the panel and plugin are lazy). 128.5 KB with the
      // SSO-without-provisioning code and the registration-by-link answer in the SDK (measured 128.47 KB;
      // the SCIM membership codes went to the organisation range, which this page does not load).
      // 136.3 KB with the tabs on Radix Tabs (measured 136.15 KB: the tabs' chunks grew from 0.62 to
      // 8.71 KB; the vendor chunk lost 0.39 KB, the SMS second-verification panel, now lazy). 136.6 KB
      // with the dialog's panel boundary, its loading status and the SMS panel's preload (measured 136.52 KB).
      budgetBytes: 136_600,
    }),
  ],
  resolve: appResolve,
  build: appBuild,
  server: {
    // /sso/login and /sso/logout are the passport's (it hands out the ticket), like the API.
    proxy: {
      ...devProxy('sso', passport, ['/passport', '/vc', '/dev', '/web_id', '/monitor']),
      '^/sso/log(in|out)/?(\\?.*)?$': passport,
    },
  },
});
