import { defineConfig } from 'tsup';

export default defineConfig({
  // The password estimator's worker, the monitoring writer thread and the puzzle render process are
  // entries of their own: src/domain/passwords/strength.ts starts dist/strength-worker.js,
  // src/domain/monitoring/writer.ts dist/writer-worker.js, and src/domain/challenge/render-process.ts
  // forks dist/render-worker.js, each beside the chunk that holds the module that starts it.
  entry: {
    main: 'src/main.ts',
    // The import command (docs/importing-users.md).
    'import-users': 'src/import-users.ts',
    app: 'src/app.ts',
    config: 'src/config.ts',
    'strength-worker': 'src/domain/passwords/strength-worker.ts',
    'writer-worker': 'src/domain/monitoring/writer-worker.ts',
    'render-worker': 'src/domain/challenge/render-worker.ts',
  },
  format: ['esm'],
  target: 'node24',
  platform: 'node',
  clean: true,
  sourcemap: true,
  dts: false,
  // The shared protocol tables and the app list are bundled from source; every npm dependency stays external.
  noExternal: ['@portico/account-sdk', '@portico/affiliate-sdk', '@portico/app-routes'],
  esbuildOptions(options) {
    options.conditions = ['@portico/source'];
  },
});
