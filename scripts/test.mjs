// The whole test run: build, typecheck, unit and integration tests, package checks, browser tests, lint.
// When a PostgreSQL or Redis answers on this machine (the development and CI machines have both),
// the server's integration suite also runs against them; the embedded default (SQLite + dev outbox)
// is always tested.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL_CHROMIUM, HEADLESS_SHELL } from './chromium.mjs';
import { childCpuSeconds, costliestFiles, slowestFiles, timingReport, turboTasks } from './test-timings.mjs';

function answers(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const env = { ...process.env };
if (!env.DATABASE_URL && (await answers(5432))) env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
if (!env.REDIS_URL && (await answers(6379))) env.REDIS_URL = 'redis://127.0.0.1:6379';
console.log(
  `portico test: PostgreSQL ${env.DATABASE_URL ? 'on' : 'off'}, Redis ${env.REDIS_URL ? 'on' : 'off'}`,
);

// The browser tests (e2e/) drive Debian's Chromium; Playwright never downloads a browser here. The
// screenshots they write need a Chinese font (without one Chromium draws boxes); Debian's
// fonts-noto-cjk provides it. The server suite reads the text puzzle with Debian's tesseract-ocr (an
// off-the-shelf OCR, as a bot would). All come from apt-get when missing (as root).
// Debian's headless shell is preferred (scripts/chromium.mjs: markedly less CPU per test); installed
// when apt-get can.
const hasBrowser = () => existsSync(HEADLESS_SHELL) || existsSync(FULL_CHROMIUM);
const canApt =
  process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
function aptInstall(packages, why) {
  console.log(`portico test: ${why}; installing Debian's ${packages.join(' ')} (about a minute)`);
  const { status } = spawnSync('sh', ['-c', `apt-get update && apt-get install -y ${packages.join(' ')}`], {
    stdio: 'inherit',
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (status !== 0) {
    console.error(`portico test: 'apt-get install -y ${packages.join(' ')}' failed (exit ${status})`);
    process.exit(status ?? 1);
  }
}
function hasChineseFont() {
  const list = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  return list.status === 0 && list.stdout.trim() !== '';
}
function ensureBrowser() {
  const wanted = env.PORTICO_CHROMIUM;
  if (wanted && !existsSync(wanted)) {
    console.error(`portico test: PORTICO_CHROMIUM=${wanted} does not exist`);
    process.exit(1);
  }
  const missing = [];
  if (!wanted && canApt && !existsSync(HEADLESS_SHELL)) missing.push('chromium-headless-shell');
  else if (!wanted && !hasBrowser()) missing.push('chromium');
  if (!hasChineseFont()) missing.push('fonts-noto-cjk');
  if (spawnSync('sh', ['-c', 'command -v tesseract'], { stdio: 'ignore' }).status !== 0)
    missing.push('tesseract-ocr');
  if (missing.length === 0) return;
  if (!canApt) {
    if (missing.includes('chromium')) {
      console.error(
        `portico test: the browser tests need Chromium at ${FULL_CHROMIUM}. Install Debian's package ` +
          `(as root: apt-get update && apt-get install -y chromium), or set PORTICO_CHROMIUM to a Chromium binary.`,
      );
      process.exit(1);
    }
    console.log(
      `portico test: not installed (${missing.join(', ')}): screenshots without a Chinese font are skipped, the OCR test without tesseract`,
    );
    return;
  }
  aptInstall(missing, `${missing.join(' and ')} missing`);
  if (!wanted && !hasBrowser()) {
    console.error(
      `portico test: Chromium is installed but neither ${HEADLESS_SHELL} nor ${FULL_CHROMIUM} is there`,
    );
    process.exit(1);
  }
}
ensureBrowser();
env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

// The browser tests run in the same turbo step as everything else: turbo starts them once the apps
// they serve are built, beside the type checks and the other suites. Run one after the other, each
// suite left part of the two cores idle (polls, argon2id's threads, child processes, a long last
// test) for minutes; side by side they fill it. No test may depend on a quiet machine.
const root = fileURLToPath(new URL('..', import.meta.url));
// Playwright's JSON reporter, where the browser suite's config names it, writes here (test-timings.mjs).
env.PLAYWRIGHT_JSON_OUTPUT_FILE ??= fileURLToPath(
  new URL('../e2e/test-results/playwright.json', import.meta.url),
);
// Builds come from a cache kept beside the machine's other caches, keyed by the hash of everything a
// build reads (turbo.json), so a second run on this machine, even from a fresh clone, rebuilds only what
// changed. Type checks, tests and package checks are never cached (turbo.json): they run every time.
// Entries unused for a week go, so the folder stays about the size of a few builds.
env.TURBO_CACHE_DIR ??= join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'portico', 'turbo');
mkdirSync(env.TURBO_CACHE_DIR, { recursive: true });
const WEEK_MS = 7 * 24 * 3600 * 1000;
for (const name of readdirSync(env.TURBO_CACHE_DIR)) {
  const file = join(env.TURBO_CACHE_DIR, name);
  if (Date.now() - statSync(file).mtimeMs > WEEK_MS) rmSync(file, { recursive: true, force: true });
}
const steps = [
  [
    'build, typecheck, tests (browser tests included)',
    'turbo',
    ['run', 'build', 'typecheck', 'test', 'check:package'],
  ],
  // The docs cite only this repository, and their relative links resolve.
  ['docs', process.execPath, [fileURLToPath(new URL('./check-docs.mjs', import.meta.url))]],
  ['lint', 'biome', ['check', '.']],
];
// Each stage's time, the slowest turbo tasks and test files, printed at the end whether green or not:
// a regression in the suite's time shows in every log.
const started = Date.now();
const stages = [];
const report = () => {
  try {
    console.log(
      timingReport({
        stages,
        tasks: turboTasks(root, started),
        files: slowestFiles(root, started),
        cpuFiles: costliestFiles(root, started),
      }),
    );
  } catch (error) {
    console.log(`portico test: no timing report (${error instanceof Error ? error.message : error})`);
  }
};
for (const [stage, command, args] of steps) {
  const stageStarted = Date.now();
  const cpuBefore = childCpuSeconds();
  const { status } = spawnSync(command, command === 'turbo' ? [...args, '--summarize'] : args, {
    stdio: 'inherit',
    env,
  });
  const cpuAfter = childCpuSeconds();
  stages.push({
    stage,
    seconds: (Date.now() - stageStarted) / 1000,
    cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    status,
  });
  if (status !== 0) {
    report();
    console.error(`portico test: '${command} ${args.join(' ')}' failed (exit ${status})`);
    process.exit(status ?? 1);
  }
}
report();
console.log('portico test: all green');
