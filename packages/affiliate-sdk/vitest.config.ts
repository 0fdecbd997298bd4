import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@portico/source'] },
  test: {
    // One module registry per worker, not per file, as in the other packages: a fresh worker per file
    // cost about 10 s of start each under load. No test mocks a module or a global.
    isolate: false,
    // A hang detector, not a speed bound: CI runs every suite at once on two cores, where a loaded
    // machine stretches a second of CPU to many.
    testTimeout: 120_000,
    include: ['test/**/*.test.ts'],
    // The *.test-d.ts files are type-checked by the package's typecheck task (tsc -p tsconfig.json takes
    // in test/); checking them in Vitest as well ran a second tsc beside it in CI.
  },
});
