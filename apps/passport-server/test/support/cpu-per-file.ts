// Each test file's CPU seconds (this worker process's, argon2id's and the estimator's threads included;
// child processes not), appended to test-results/cpu.jsonl. The test run's timing table prints the
// costliest files from it (scripts/test-timings.mjs): unlike a file's wall time, its CPU does not grow
// with the machine's load, so a regression shows the same in every log.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'test-results', 'cpu.jsonl');
let started: NodeJS.CpuUsage | undefined;

beforeAll(() => {
  started = process.cpuUsage();
});
afterAll(() => {
  if (!started) return;
  const used = process.cpuUsage(started);
  const file = expect.getState().testPath;
  if (!file) return;
  mkdirSync(dirname(out), { recursive: true });
  appendFileSync(
    out,
    `${JSON.stringify({
      file: relative(root, file),
      project: process.env.PORTICO_TEST_BACKEND,
      cpu: (used.user + used.system) / 1e6,
    })}\n`,
  );
});
