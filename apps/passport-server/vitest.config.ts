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
    // Two files at a time even on a 2-core machine (Vitest's default there is one): much of a test's
    // time is waiting on PostgreSQL, Redis, argon2id's thread pool or a child process, and one worker
    // left the suite at 12.5 minutes of the CI run. Each worker has its own PostgreSQL database
    // (test/support/server.ts, postgresUrl).
    maxWorkers: 2,
    // A worker keeps the modules it imported from one file to the next: importing the server (Fastify,
    // oidc-provider, the store drivers) afresh for each of ~190 file runs was a quarter of the suite's
    // time. Safe here because nothing in src/ keeps module-level state between servers (but the
    // estimator's worker thread and the puzzle render process, shared by design) and no test mocks a
    // module (vi.mock) or the environment; each test file still builds its own servers.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects,
  },
});
