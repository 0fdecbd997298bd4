import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** apps/passport-server, found through the workspace dependency. */
export const serverPackageDir = dirname(require.resolve('@portico/passport-server/package.json'));
/** The README's start command runs this file (`pnpm --filter @portico/passport-server start`). */
export const serverMain = join(serverPackageDir, 'dist', 'main.js');
/** Our embedding launcher: the same server through `buildServer`, for limits no variable sets. */
const launcher = fileURLToPath(new URL('./launch-server.mjs', import.meta.url));

/**
 * Variables the server reads that must not leak in from the shell running the tests: `scripts/test.mjs`
 * sets DATABASE_URL and REDIS_URL for the server's own suite when PostgreSQL and Redis answer, and the
 * browser tests run the embedded default (SQLite in a temp dir + dev outbox), as the README starts it.
 */
const SERVER_VARIABLES = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'REDIS_URL',
  'REDIS_PREFIX',
  'SMTP_URL',
  'SMTP_FROM',
  'SMS_WEBHOOK_URL',
  'SMS_WEBHOOK_TOKEN',
  'DEV_OUTBOX',
  'PUBLIC_ORIGIN',
  'ALLOWED_ORIGINS',
  'COOKIE_DOMAIN',
  'TRUST_PROXY',
  'DEFAULT_REGION',
  'ALLOWED_REGIONS',
  'SESSION_IDLE_SECONDS',
  'SESSION_ABSOLUTE_SECONDS',
  'LOG_LEVEL',
  'SECRET',
  'APP_NAME',
  'SECOND_VERIFY',
  'WEB_DIST',
  'SSO_DIST',
  'APP_WEBVIEW_DIST',
  'SSO_HOST',
  'SSO_SERVICES',
  'PROFILE_QUOTAS',
  'OPERATOR_USER_IDS',
  'CANCEL_COOLING_OFF_DAYS',
  'TEST_CLOCK',
  'POW_DIFFICULTY',
  'CHALLENGE_RENDER_NICENESS',
];

/**
 * The browser's connection comes from here, and the server trusts it as a proxy (TRUST_PROXY): the
 * tests share one server per worker, and each test's requests name a client address of the test's own
 * in `x-forwarded-for` (support/client-address.ts), so the per-address risk counters stay each test's.
 * A request without the header (the tests' own `fetch` to the dev routes) counts as this address.
 */
export const BROWSER_HOP = '127.0.0.1';

export interface ServerOptions {
  /** Extra environment variables (e.g. `SECOND_VERIFY: 'off'`); the rest are the defaults. */
  env?: Record<string, string>;
  /**
   * Challenge kinds the risk rules may pick. The server picks one at random from its
   * `limits.challengeKinds`, which no environment variable sets; when given, the server is started
   * through `buildServer(loadConfig(env), { limits: { challengeKinds } })` (the embedding API its
   * README documents) instead of `dist/main.js`.
   */
  challengeKinds?: readonly string[];
  /** How long a QR code lives (default 120 s); when given, the server starts through the launcher too. */
  qrTtlMs?: number;
}

export interface RunningServer {
  /** `http://localhost:<port>`: the server's PUBLIC_ORIGIN, so cookies and the origin check line up. */
  origin: string;
  port: number;
  dataDir: string;
  /** Everything the process printed so far (attached to failing tests). */
  output(): string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now: bind port 0, read it, close. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds (user + system) a process and its descendants have used so far (its render process
 * included), from /proc; 0 where /proc is not there. `E2E_CPU_LOG=<file>` writes each server's, with
 * its settings, as it stops: what the browser suite's servers cost beside Chromium (docs/testing.md).
 */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime, stime, cutime, cstime, in clock ticks (100 a second on Linux).
    const own = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) / 100;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
    return own + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
  } catch {
    return 0;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts the passport server as the README starts it: the built `dist/main.js`, default settings
 * (but TRUST_PROXY, see BROWSER_HOP), a fresh temp DATA_DIR and a free port. Resolves once it prints
 * its ready line.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  if (!existsSync(serverMain)) {
    throw new Error(
      `${serverMain} is missing: build the server first (pnpm --filter @portico/passport-server build, or turbo run build)`,
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-e2e-'));
  const port = options.env?.PORT ? Number(options.env.PORT) : await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!SERVER_VARIABLES.includes(key)) env[key] = value;
  }
  Object.assign(
    env,
    // POW_DIFFICULTY=test: the challenge's proof of work priced for tests (milliseconds in the page's
    // workers; the server refuses it off loopback); test/challenge-pow.test.ts holds the real prices.
    // CHALLENGE_RENDER_NICENESS=0: puzzles drawn at normal priority. At the default 19 a puzzle waits
    // for idle CPU, which a run that keeps both cores busy (every suite at once) may not leave for a
    // minute; the server suite holds the default's behaviour (test/challenge-render-process.test.ts).
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: BROWSER_HOP,
      POW_DIFFICULTY: 'test',
      CHALLENGE_RENDER_NICENESS: '0',
    },
    options.env,
  );
  const args = options.challengeKinds || options.qrTtlMs ? [launcher] : [serverMain];
  if (options.challengeKinds) env.E2E_CHALLENGE_KINDS = options.challengeKinds.join(',');
  if (options.qrTtlMs) env.E2E_QR_TTL_MS = String(options.qrTtlMs);

  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });

  const stop = async () => {
    const cpuLog = process.env.E2E_CPU_LOG;
    if (cpuLog && child.pid) {
      appendFileSync(cpuLog, `${cpuSeconds(child.pid).toFixed(2)}\t${JSON.stringify(options)}\n`);
    }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      // A hang detector, not a speed bound: a quiet start takes about a second, but on the shared
      // 2-core machine with several suites beside it starts took over 90 s (load average above 40).
      // It stays under the test's own limit, so a start that hangs is reported with its output.
      const timer = setTimeout(() => reject(new Error('the server did not start within 240 s')), 240_000);
      const onData = () => {
        if (output.includes('Portico passport server on')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with code ${code} before it was ready`));
      });
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { origin: `http://localhost:${port}`, port, dataDir, output: () => output, stop };
}
