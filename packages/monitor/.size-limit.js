// Budgets, brotli, at the measured figures (any growth fails CI). @portico/account-sdk/protocol (the
// collector's path) is resolved from its TypeScript source, so no build of it is needed.
const withSource = (config) => ({
  ...config,
  resolve: { ...config.resolve, conditionNames: ['@portico/source', 'import', 'default'] },
});

export default [
  {
    name: 'createMonitor (batching, sampling, session, default transport)',
    path: 'dist/index.js',
    import: '{ createMonitor }',
    modifyRolldownConfig: withSource,
    limit: '2712 B',
  },
  {
    name: 'createMonitor + every collector but web vitals',
    path: 'dist/index.js',
    import:
      '{ createMonitor, sessionStart, pageViews, jsErrors, resourceErrors, resourceTiming, captchaEvents }',
    modifyRolldownConfig: withSource,
    limit: '4056 B',
  },
  {
    name: 'createMonitor + every collector, web-vitals 6.2.3 included',
    path: 'dist/index.js',
    import:
      '{ createMonitor, sessionStart, pageViews, jsErrors, resourceErrors, resourceTiming, webVitals, captchaEvents }',
    modifyRolldownConfig: withSource,
    limit: '6935 B',
  },
  {
    name: 'createMonitor + monitorPlugin, the account SDK not counted (the page has it already)',
    path: 'dist/index.js',
    import: '{ createMonitor, monitorPlugin }',
    ignore: ['@portico/account-sdk'],
    limit: '3037 B',
  },
  {
    name: 'createMonitor + monitorPlugin, with what it takes from the account SDK',
    path: 'dist/index.js',
    import: '{ createMonitor, monitorPlugin }',
    modifyRolldownConfig: withSource,
    limit: '3284 B',
  },
];
