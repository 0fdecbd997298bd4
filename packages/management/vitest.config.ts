import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages resolve to their TypeScript source, in the client and the server (node) environment.
  resolve: { conditions: ['@portico/source'] },
  ssr: { resolve: { conditions: ['@portico/source'] } },
  test: {
    // One module registry (and jsdom) per worker, not per file: creating them per file was most of this
    // suite's time in CI, where every package's tests share two cores. Tests reset what they share.
    isolate: false,
    // A hang detector, not a speed bound: CI runs every suite at once on two cores, where a loaded
    // machine stretches a second of CPU to many.
    testTimeout: 120_000,
    include: ['test/**/*.test.ts'],
    // The *.test-d.ts files are type-checked by the package's typecheck task (tsc -p tsconfig.json takes
    // in test/); checking them in Vitest as well ran a second tsc beside it in CI.
  },
});
