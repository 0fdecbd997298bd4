import { defineConfig } from 'tsup';

export default defineConfig({
  // The password estimator's worker is an entry of its own: src/domain/passwords/strength.ts starts it as
  // dist/strength-worker.js, beside the chunk that holds that module.
  entry: {
    main: 'src/main.ts',
    app: 'src/app.ts',
    config: 'src/config.ts',
    'strength-worker': 'src/domain/passwords/strength-worker.ts',
    'writer-worker': 'src/domain/monitoring/writer-worker.ts',
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
