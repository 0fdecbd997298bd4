import { defineConfig, devices } from '@playwright/test';
import { memoryTmpDir } from '../scripts/memory-tmpdir.mjs';
import { chromiumPath } from './support/chromium';

// The servers' data directories and the browsers' profiles in memory (scripts/memory-tmpdir.mjs): the
// workers and everything they start inherit this.
process.env.TMPDIR = memoryTmpDir();

// Debian's Chromium headless shell, else its Chromium (support/chromium.ts); Playwright never
// downloads a browser here.
const executablePath = chromiumPath();
/** Chromium's flags for this closed machine; a spec that needs more (host mapping) adds to these. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  // A worker's tests share its servers (support/test.ts); two workers keep a 2-core machine busy beside
  // the server suite (three started more servers and made the browser suite slower: 451 s against 399).
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // A flaky browser test is a bug to fix, not to retry.
  retries: 0,
  // Hang detectors, not speed bounds. A test may start a server (the first of its settings in its
  // worker) and a browser context, and the suite runs beside every other suite on two cores: on a
  // loaded machine that alone can take minutes. One step (a registration: argon2id, a send, a page)
  // took over 10 s with three workers on the busy machine; a bound costs a passing test nothing. At a
  // load average near 50 on the shared 2-core machine, the longest scenarios (factors, invitations)
  // passed 300 s while still moving, so a test has 600 s.
  timeout: 600_000,
  expect: { timeout: 60_000 },
  // The JSON report feeds the test run's timing table (scripts/test-timings.mjs): written only where
  // scripts/test.mjs names its file (without one, Playwright would print it).
  reporter: [
    ['list'],
    ...(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [['json'] as ['json']] : []),
    ...(process.env.CI ? [['html', { open: 'never' }] as ['html', { open: 'never' }]] : []),
  ],
  use: {
    ...devices['Desktop Chrome'],
    // The apps speak the browser's language when the person chose none: the tests' people read Chinese
    // unless a test says otherwise (`test.use({ locale: 'en-US' })`).
    locale: 'zh-CN',
    // Traces only when asked (PORTICO_E2E_TRACE=1; a failing test then keeps every step's DOM snapshot,
    // network and console). Recording them costs every test, passing or not: the DOM snapshot of each
    // step and every response body hashed and written, about an eighth of the browser suite's CPU
    // beside its servers (web-auth, account-security and organisations: 34.9 s with, 30.8 s without).
    // A failure still keeps its screenshot, the page's accessibility snapshot (error-context.md) and
    // what the server printed. Never the screencast (`screenshots`): its frames cost a seventh more.
    trace: process.env.PORTICO_E2E_TRACE ? { mode: 'retain-on-failure', screenshots: false } : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: chromiumArgs,
    },
  },
  projects: [{ name: 'chromium' }],
});
