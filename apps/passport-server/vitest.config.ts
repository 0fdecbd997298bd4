import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// The integration suite runs once per backend: SQLite always; PostgreSQL when DATABASE_URL is set;
// the Redis store when REDIS_URL is set. test/support/server.ts reads PORTICO_TEST_BACKEND.
const backends = ['sqlite'];
if (process.env.DATABASE_URL) backends.push('postgres');
if (process.env.REDIS_URL) backends.push('redis');

const projects: TestProjectInlineConfiguration[] = backends.map((backend) => ({
  extends: true,
  test: { name: backend, env: { PORTICO_TEST_BACKEND: backend } },
}));

export default defineConfig({
  resolve: { conditions: ['@portico/source'] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects,
  },
});
