import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@portico/source'] },
  test: {
    // CI runs every package's suite at once on two cores; property tests need headroom there.
    testTimeout: 20_000,
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
