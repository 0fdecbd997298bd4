import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // Peers stay the app's own copies: two Reacts or two QueryClients in one page break hooks and caches.
  external: ['react', 'react-dom', 'react/jsx-runtime', '@tanstack/react-query'],
  // Every export is a hook or a component that runs in the browser: React Server Components frameworks
  // must treat the whole entry as a client module.
  banner: { js: "'use client';" },
});
