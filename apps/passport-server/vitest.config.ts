import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { memoryTmpDir } from '../../scripts/memory-tmpdir.mjs';

// The suite's projects (docs/testing.md). Every file runs on the embedded default, SQLite with its own
// store file: the feature suites, units, config, docs and inventory tests. PostgreSQL and Redis run what
// differs by backend: the storage contracts (test/contracts) and the faults of that backend, each on
// its own; and one scenario per route family on both together (test/smoke). Repeating every feature
// file on each backend cost two thirds of the suite's time and found what the contracts find.
// test/support/server.ts reads PORTICO_TEST_BACKEND.
const CONTRACTS = 'test/contracts/**/*.test.ts';
const SMOKE = 'test/smoke/**/*.test.ts';
// Limits that strangers must not be able to fill for the owner (queues, lockouts, send budgets): their
// counters live in the store, so they run on every backend.
const FAIRNESS = 'test/fairness/**/*.test.ts';
// Several people through the real SDKs on a real port: invitations, the sole manager, the permission
// matrix, races.
const SCENARIOS = 'test/scenarios/**/*.test.ts';

const project = (
  name: string,
  include: string[],
  exclude: string[] = [],
): TestProjectInlineConfiguration => ({
  extends: true,
  // The servers' data directories (and every other temporary file) in memory: scripts/memory-tmpdir.mjs.
  test: { name, include, exclude, env: { PORTICO_TEST_BACKEND: name, TMPDIR: memoryTmpDir() } },
});

const projects: TestProjectInlineConfiguration[] = [project('sqlite', ['test/**/*.test.ts'], [SMOKE])];
// enumeration.test.ts compares answer times: a timing oracle may come from the backend's own latencies.
// passkeys.test.ts: its challenges live in the store, on PostgreSQL a table of the main database taken
// and written around the operation's transaction (src/adapters/invoke.ts, oneTimeValues).
if (process.env.DATABASE_URL)
  projects.push(
    project('postgres', [
      CONTRACTS,
      FAIRNESS,
      'test/faults/postgres.test.ts',
      'test/enumeration.test.ts',
      // The provider's records and claims queries on PostgreSQL, driven by a stock client.
      'test/open-auth-stock.test.ts',
      // The provider's refusals (SECURITY.md, "OAuth provider") with openid-client, on PostgreSQL too.
      'test/open-auth.test.ts',
      // The OpenID Foundation-style plans that need more than one stock client (agents, resource servers).
      'test/conformance/**/*.test.ts',
      'test/passkeys.test.ts',
      // An organisation's second-factor rule: judged in the operations' transactions and the session row.
      'test/sdk/org-second-factor.test.ts',
      // The organisation defects that were PostgreSQL's as much as SQLite's: the upload quota and the
      // transfer and invitation races need its row locks; an invitation accepted inside an operation's
      // transaction must not wait on a second connection; the invitation flood's budgets and the
      // delivery gate's counters live in its store table; the grant rules and the sole manager are
      // checked in transactions whose reads it isolates differently (docs/testing.md).
      SCENARIOS,
      'test/sdk/organisation-integrity.test.ts',
      'test/sdk/roles.test.ts',
      'test/delivery-gate.test.ts',
      // The management API's writes: row locks, unique races and the store's idempotency keys.
      'test/management-users.test.ts',
      // Every other resource of the management API through the published client: paging by cursor over
      // 10,000 users (bigint times, the keyset order), organisations and their frozen keys, scopes.
      'test/management-api.test.ts',
      'test/management-organisations.test.ts',
      // SCIM provisioning: concurrent creates of one userName meet PostgreSQL's unique indexes.
      'test/scim.test.ts',
      // The saved language: its column on PostgreSQL.
      'test/language.test.ts',
      // Webhook deliveries' leases and queues on PostgreSQL, against a receiver on loopback.
      'test/webhooks.test.ts',
      // OAuth apps through the management API: the provider's client records paged by cursor (bigint
      // creation times) and written in the operation's transaction, used by a stock client.
      'test/management-apps.test.ts',
      // The import's batched inserts and its checks against the accounts already there.
      'test/import-users.test.ts',
      // Enterprise single sign-on: the first sign-in's account, link and membership in one transaction.
      'test/sdk/enterprise-sso.test.ts',
    ]),
  );
if (process.env.REDIS_URL)
  projects.push(project('redis', [CONTRACTS, FAIRNESS, 'test/faults/redis.test.ts']));
// PostgreSQL and Redis together, as a scaled-out deployment runs (either alone when only one is set).
if (process.env.DATABASE_URL || process.env.REDIS_URL) projects.push(project('services', [SMOKE]));

export default defineConfig({
  resolve: { conditions: ['@portico/source'] },
  test: {
    // No `include` here: a project's include would be added to it, not put in its place.
    // Two files at a time even on a 2-core machine (Vitest's default there is one): much of a test's
    // time is waiting on PostgreSQL, Redis, a child process or a poll. Four, beside the browser suite,
    // cost more CPU (719 s for the whole run against 662) for no shorter run (480 s against 457). Each
    // worker has its own PostgreSQL database (test/support/server.ts, postgresUrl).
    maxWorkers: 2,
    // Each file's CPU seconds, for the run's timing table (test/support/cpu-per-file.ts).
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/cpu-per-file.ts'],
    // A worker keeps the modules it imported from one file to the next: importing the server (Fastify,
    // oidc-provider, the store drivers) afresh for each file run was a large share of the suite's
    // time. Safe here because nothing in src/ keeps module-level state between servers (but the
    // estimator's worker thread, the puzzle render process, the validators and the default images'
    // bytes, shared by design) and no test mocks a module (vi.mock) or the environment; each test file
    // still builds its own servers.
    isolate: false,
    // Hang detectors, not speed bounds: CI runs this suite beside every other on two cores, where a
    // loaded machine stretches a second of CPU to many (a server's start in a hook most of all).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    projects,
  },
});
