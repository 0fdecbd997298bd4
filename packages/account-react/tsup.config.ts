import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  treeshake: true,
  // Peers stay the app's own copies: two Reacts or two QueryClients in one page break hooks and caches.
  external: ['react', 'react-dom', 'react/jsx-runtime', '@tanstack/react-query'],
});
