import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages resolve to their TypeScript source, in the client and the server (node) environment.
  resolve: { conditions: ['@portico/source'] },
  ssr: { resolve: { conditions: ['@portico/source'] } },
  test: {
    // One module registry (and DOM) per worker, not per file: creating them per file was most of this
    // suite's time in CI, where every package's tests share two cores. Tests reset what they share.
    isolate: false,
    // A hang detector, not a speed bound: CI runs every suite at once on two cores, where a loaded
    // machine stretches a second of CPU to many.
    testTimeout: 120_000,
    // happy-dom, not jsdom: the same tests at about 60 % of jsdom's CPU (23 s against 38 s for this
    // suite), and CI runs every package's suite at once on two cores. Pages resolve against this address.
    environment: 'happy-dom',
    environmentOptions: { happyDOM: { url: 'http://localhost:3000/' } },
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/support/setup.ts'],
    // The *.test-d.ts files are type-checked by the package's typecheck task (tsc -p tsconfig.json takes
    // in test/); checking them in Vitest as well ran a second tsc beside it in CI.
  },
});
