// Two budgets, brotli: the package's own code, and what a page ships when only the loader pulls in
// @portico/account-sdk/protocol (resolved from its TypeScript source, so no build of it is needed).
const withSource = (config) => ({
  ...config,
  resolve: { ...config.resolve, conditionNames: ['@portico/source', 'import', 'default'] },
});

export default [
  {
    name: 'createCaptchaLoader, own code',
    path: 'dist/index.js',
    import: '{ createCaptchaLoader }',
    ignore: ['@portico/account-sdk'],
    limit: '2.2 kB',
  },
  {
    name: 'createCaptchaLoader + the protocol tables it uses',
    path: 'dist/index.js',
    import: '{ createCaptchaLoader }',
    modifyRolldownConfig: withSource,
    limit: '2.6 kB',
  },
];
