// Two budgets, brotli: the package's own code, and what a page ships when only the loader pulls in
// @portico/account-sdk/protocol (resolved from its TypeScript source, so no build of it is needed).
// Raised by 0.6 kB for the third-party widgets (Turnstile, hCaptcha, GeeTest v4): the server decides
// at run time whether one is in front, so createCaptchaLoader carries their mounting code.
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
    limit: '2.8 kB',
  },
  {
    name: 'createCaptchaLoader + the protocol tables it uses',
    path: 'dist/index.js',
    import: '{ createCaptchaLoader }',
    modifyRolldownConfig: withSource,
    limit: '3.2 kB',
  },
];
