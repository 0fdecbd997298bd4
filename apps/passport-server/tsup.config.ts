import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts', app: 'src/app.ts', config: 'src/config.ts' },
  format: ['esm'],
  target: 'node24',
  platform: 'node',
  clean: true,
  sourcemap: true,
  dts: false,
  // The shared protocol tables are bundled from source; every npm dependency stays external.
  noExternal: ['@portico/account-sdk'],
  esbuildOptions(options) {
    options.conditions = ['source'];
  },
});
