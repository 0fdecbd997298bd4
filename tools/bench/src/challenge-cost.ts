// What the challenge's proof of work costs a script and a person (docs/security.md, "The challenge's
// price"). Part of `pnpm bench`; alone: `pnpm --filter @portico/bench bench:challenge`.
//
// The script: altcha-lib's own solver with Node's native PBKDF2 (what a bot would run), on challenges
// made exactly as the server makes them. Its CPU time is process.cpuUsage (libuv's threads included),
// never wall time: CPU-seconds per pass are what the price is stated in.
// The person: the challenge script's own solver (powSearch, read from the served challenge.js) in
// Chromium's Web Worker, one worker, timed in the page (wall time: the least disturbed sample). Chromium's
// CPU throttling does not pace WebCrypto (its PBKDF2 is native code; throttled and unthrottled runs
// measured alike, within the machine's noise), so the reference phone is computed from the desktop
// browser's figure and the reference profile (REFERENCE_PROFILE: 4× slower per core, 2 cores).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defaultChallengeLimits, priceOf, REFERENCE_PROFILE } from '@portico/passport-server';
import { createChallenge, solveChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../../../scripts/chromium.mjs';

const require = createRequire(import.meta.url);
const limits = defaultChallengeLimits;
const SECRET = 'bench-secret';
const KEY_SECRET = 'bench-key-secret';
/** Attempts per measured sample: ~1 s of one core at the default cost. */
const SAMPLE = 1_200;
const SAMPLES = 6;
/** Full passes measured at the lowest price (a check on the expected figure). */
const LOW_PASSES = 16;

const log = (line: string) => process.stderr.write(`[challenge] ${line}\n`);

const challengeAt = (counter: number) =>
  createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: limits.powCost,
    counter,
    deriveKey,
    hmacSignatureSecret: SECRET,
    hmacKeySignatureSecret: KEY_SECRET,
  });

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

/** Solves like a script; returns the CPU-seconds and the attempts it took. */
async function scriptSolve(counter: number): Promise<{ cpu: number; attempts: number }> {
  const challenge = await challengeAt(counter);
  let attempts = 0;
  const started = process.cpuUsage();
  const solution = await solveChallenge({
    challenge,
    deriveKey: (p, salt, password) => {
      attempts++;
      return deriveKey(p, salt, password);
    },
    timeout: 0,
  });
  const cpu = cpuSeconds(started);
  if (!solution) throw new Error('the script found no solution');
  const verdict = await verifySolution({
    challenge,
    solution,
    deriveKey,
    hmacSignatureSecret: SECRET,
    hmacKeySignatureSecret: KEY_SECRET,
  });
  if (!verdict.verified) throw new Error('the script’s solution does not verify');
  return { cpu, attempts };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const randomBelow = (n: number) => Math.floor(Math.random() * n);

interface PageWorkerLike {
  onmessage: ((event: { data: unknown }) => void) | null;
  postMessage(message: unknown): void;
  terminate(): void;
}

/** The person's solver, as the challenge script serves it. */
function powSearchSource(): string {
  const dir = dirname(require.resolve('@portico/passport-server/package.json'));
  const script = readFileSync(join(dir, 'src', 'static', 'challenge-script', 'challenge.js'), 'utf8');
  const start = script.indexOf('async function powSearch(');
  const end = script.indexOf('\n    return null;\n  }\n', start);
  if (start < 0 || end < 0) throw new Error('powSearch not found in challenge.js');
  return script.slice(start, end + '\n    return null;\n  }'.length);
}

/** Milliseconds per attempt of the page's solver in one Chromium worker, at a CPU throttling rate. */
async function browserPerAttempt(rates: number[]): Promise<Map<number, number>> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const out = new Map<number, number>();
  try {
    const page = await browser.newPage();
    // A secure context (WebCrypto), without a server: localhost answered by the page's router.
    await page.route('http://localhost/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>pow</title>' }),
    );
    await page.goto('http://localhost/');
    const cdp = await page.context().newCDPSession(page);
    const source = powSearchSource();
    for (const rate of rates) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const challenge = await challengeAt(SAMPLE - 1);
        const { ms, solution } = await page.evaluate(
          async ({ source, parameters }) => {
            const url = URL.createObjectURL(
              new Blob([`${source}\nonmessage = async (e) => postMessage(await powSearch(e.data));`], {
                type: 'text/javascript',
              }),
            );
            // The page's Worker (this package's types are Node's, without the DOM).
            const PageWorker = (globalThis as unknown as { Worker: new (url: string) => PageWorkerLike })
              .Worker;
            const worker = new PageWorker(url);
            const started = performance.now();
            const solution = await new Promise((resolve) => {
              worker.onmessage = (event: { data: unknown }) => resolve(event.data);
              worker.postMessage({ parameters, limit: 1_000_000, start: 0, step: 1 });
            });
            const ms = performance.now() - started;
            worker.terminate();
            return { ms, solution };
          },
          { source, parameters: challenge.parameters },
        );
        const verdict = await verifySolution({
          challenge,
          solution: solution as never,
          deriveKey,
          hmacSignatureSecret: SECRET,
          hmacKeySignatureSecret: KEY_SECRET,
        });
        if (!verdict.verified) throw new Error('the page’s solution does not verify');
        times.push(ms / SAMPLE);
      }
      // The least disturbed sample: on a shared machine the others measure the neighbours.
      out.set(rate, Math.min(...times));
    }
  } finally {
    await browser.close();
  }
  return out;
}

export async function challengeCost(): Promise<string[]> {
  const quiet = { risk: 1, addressDraws: 1, deviceDraws: 1, targetDraws: 1, globalDraws: 1 };
  const low = priceOf(quiet, limits);
  const capped = priceOf(
    { risk: 64, addressDraws: 10, deviceDraws: 10, targetDraws: 100, globalDraws: 1e9 },
    limits,
  );
  const bot = priceOf({ ...quiet, addressDraws: limits.powBotAfterDraws + 1 }, limits);

  log(`script: ${SAMPLES} samples of ${SAMPLE} attempts`);
  const perAttempt: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const { cpu, attempts } = await scriptSolve(SAMPLE - 1);
    perAttempt.push(cpu / attempts);
  }
  const scriptAttempt = median(perAttempt);
  log(`script: ${LOW_PASSES} passes at the lowest price`);
  const passes = async (limit: number, n: number) => {
    let cpu = 0;
    let attempts = 0;
    for (let i = 0; i < n; i++) {
      const run = await scriptSolve(randomBelow(limit));
      cpu += run.cpu;
      attempts += run.attempts;
    }
    return { cpu: cpu / n, attempts: attempts / n };
  };
  const lowRun = await passes(low.attempts, LOW_PASSES);

  log('person: the page’s solver in Chromium, unthrottled and at 4× CPU throttling');
  const page = await browserPerAttempt([1, REFERENCE_PROFILE.phoneSlowdown]);
  const unthrottled = page.get(1) ?? Number.NaN;
  const throttled = page.get(REFERENCE_PROFILE.phoneSlowdown) ?? Number.NaN;
  // The throttle does not pace WebCrypto (its native PBKDF2): both runs measure the desktop browser,
  // and the least disturbed of all their samples is its speed.
  const desktop = Math.min(unthrottled, throttled);
  /** Reference phone, ms per attempt of wall time (its solver on its cores). */
  const phone = (desktop * REFERENCE_PROFILE.phoneSlowdown) / REFERENCE_PROFILE.phoneCores;

  const s = (seconds: number) => (seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(1));
  const check = (ok: boolean) => (ok ? 'yes' : '**no**');
  const lines: string[] = [];
  lines.push(
    `| the challenge's proof of work (PBKDF2/SHA-256, ${limits.powCost.toLocaleString('en')} iterations per attempt) | attempts at most | script CPU-s per pass, expected | person on the reference phone, median / worst s |`,
  );
  lines.push('|---|---:|---:|---:|');
  // Expected: half the price (the counter is uniform below it) times the measured CPU per attempt.
  const row = (name: string, attempts: number, note = '') =>
    lines.push(
      `| ${name} | ${attempts.toLocaleString('en')} | ${s((attempts / 2) * scriptAttempt)}${note} | ${s(((attempts / 2) * phone) / 1000)} / ${s((attempts * phone) / 1000)} |`,
    );
  row(
    'lowest risk',
    low.attempts,
    ` (${LOW_PASSES} full passes measured: ${s(lowRun.cpu)} each, ${lowRun.attempts.toFixed(0)} attempts)`,
  );
  row('high risk, at the person cap', capped.attempts);
  row('past what one person draws (bot price)', bot.attempts);
  lines.push('');
  lines.push('| rate per attempt | ms |');
  lines.push('|---|---:|');
  lines.push(`| script, one core, CPU (Node's native PBKDF2) | ${(scriptAttempt * 1000).toFixed(2)} |`);
  lines.push(
    `| Chromium, the page's solver in one worker, wall (least disturbed sample) | ${unthrottled.toFixed(2)} |`,
  );
  lines.push(
    `| Chromium at ${REFERENCE_PROFILE.phoneSlowdown}× CPU throttling (does not pace WebCrypto's native PBKDF2) | ${throttled.toFixed(2)} |`,
  );
  lines.push(
    `| reference phone: Chromium (the faster of the two) × ${REFERENCE_PROFILE.phoneSlowdown} per core, on ${REFERENCE_PROFILE.phoneCores} cores, wall | ${phone.toFixed(2)} |`,
  );
  lines.push('');
  lines.push('| goal | measured | met |');
  lines.push('|---|---|---|');
  const botScript = (bot.attempts / 2) * scriptAttempt;
  lines.push(
    `| a script pays ≥ 30 CPU-s per pass past what one person draws | ${s(botScript)} CPU-s | ${check(botScript >= 30)} |`,
  );
  const worst = (capped.attempts * phone) / 1000;
  lines.push(
    `| a person on the reference phone waits ≤ ~10 s at the highest price they can meet | ${s(worst)} s at worst | ${check(worst <= 10.5)} |`,
  );
  const cappedScript = (capped.attempts / 2) * scriptAttempt;
  lines.push(
    `| a script pays ≥ 30 CPU-s per pass at the person cap (a fresh address and device every pass) | ${s(cappedScript)} CPU-s | ${check(cappedScript >= 30)}: that needs a provider (docs/security.md) |`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`\n${(await challengeCost()).join('\n')}\n`);
}
