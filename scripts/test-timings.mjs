// What the test run reports of its own time (scripts/test.mjs): each stage's seconds, the slowest turbo
// tasks, and the slowest test files from the reports the suites write: Vitest's JSON report of the
// passport server's suite and Playwright's JSON report of the browser tests. A report that is missing,
// unreadable or left over from an earlier run is skipped: the timings never fail the run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The reports, relative to the repository root: each names the runner whose format it is in. */
export const REPORTS = [
  { runner: 'vitest', path: 'apps/passport-server/test-results/vitest.json' },
  { runner: 'playwright', path: 'e2e/test-results/playwright.json' },
];

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

/** Turbo's run summaries (`--summarize`) written since `since`: each task that ran, with its seconds. */
export function turboTasks(root, since) {
  const dir = join(root, '.turbo', 'runs');
  if (!existsSync(dir)) return [];
  const tasks = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (!name.endsWith('.json') || statSync(file).mtimeMs < since) continue;
    for (const task of readJson(file)?.tasks ?? []) {
      const { startTime, endTime } = task.execution ?? {};
      if (typeof startTime !== 'number' || typeof endTime !== 'number') continue;
      tasks.push({
        task: task.taskId,
        seconds: (endTime - startTime) / 1000,
        cached: task.cache?.status === 'HIT',
      });
    }
  }
  return tasks;
}

/** Per-file seconds of a Vitest JSON report (one entry per file and project). */
function vitestFiles(report, root) {
  return (report.testResults ?? [])
    .filter((file) => typeof file.startTime === 'number' && typeof file.endTime === 'number')
    .map((file) => ({ file: relative(root, file.name), seconds: (file.endTime - file.startTime) / 1000 }));
}

/** Per-file seconds of a Playwright JSON report: the sum of its tests' run times. */
function playwrightFiles(report) {
  const totals = new Map();
  const walk = (suite, file) => {
    const at = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? [])
          totals.set(at, (totals.get(at) ?? 0) + (result.duration ?? 0) / 1000);
    for (const child of suite.suites ?? []) walk(child, at);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return [...totals].map(([file, seconds]) => ({ file: `e2e: ${file}`, seconds }));
}

/** Where the server suite writes each file's CPU seconds (apps/passport-server/test/support/cpu-per-file.ts). */
export const CPU_REPORT = 'apps/passport-server/test-results/cpu.jsonl';

/** The server suite's costliest files by CPU seconds, written since `since`, costliest first. */
export function costliestFiles(root, since, count = 10) {
  const file = join(root, CPU_REPORT);
  if (!existsSync(file) || statSync(file).mtimeMs < since) return undefined;
  const rows = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const row = JSON.parse(line);
      if (typeof row.cpu === 'number') rows.push(row);
    } catch {}
  }
  const total = rows.reduce((sum, row) => sum + row.cpu, 0);
  const top = rows.sort((a, b) => b.cpu - a.cpu).slice(0, count);
  return top.length ? { total, files: top } : undefined;
}

/** The slowest test files of each report written since `since`, slowest first. */
export function slowestFiles(root, since, count = 8) {
  const files = [];
  for (const { runner, path } of REPORTS) {
    const file = join(root, path);
    if (!existsSync(file) || statSync(file).mtimeMs < since) continue;
    const report = readJson(file);
    if (!report) continue;
    const found = runner === 'vitest' ? vitestFiles(report, root) : playwrightFiles(report);
    files.push(...found.sort((a, b) => b.seconds - a.seconds).slice(0, count));
  }
  return files.sort((a, b) => b.seconds - a.seconds);
}

const seconds = (s) => s.toFixed(1).padStart(7);

/**
 * The CPU seconds (user + system) of every child process this one has waited for, and of theirs, from
 * Linux's /proc (undefined elsewhere). On a shared machine the wall time of a stage says more about the
 * neighbours than about the suite; its CPU seconds do not.
 */
export function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name (which may hold spaces) in parentheses; cutime and cstime are
    // the 16th and 17th fields of the line, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** The table printed at the end of a run, green or not. */
export function timingReport({ stages, tasks, files, cpuFiles }) {
  const lines = ['', 'portico test: time by stage (wall; CPU user + system)'];
  const cpu = (s) => (s === undefined ? '' : `  (${s.toFixed(0)} s CPU)`);
  for (const { stage, seconds: s, cpu: c, status } of stages)
    lines.push(`${seconds(s)} s  ${stage}${cpu(c)}${status === 0 ? '' : `  (failed, exit ${status})`}`);
  const total = (key) => stages.reduce((sum, stage) => sum + (stage[key] ?? 0), 0);
  lines.push(
    `${seconds(total('seconds'))} s  total${cpu(stages.some((s) => s.cpu !== undefined) ? total('cpu') : undefined)}`,
  );
  const ran = tasks.filter((task) => !task.cached).sort((a, b) => b.seconds - a.seconds);
  if (ran.length) {
    lines.push('', 'portico test: slowest turbo tasks (cache misses)');
    for (const task of ran.slice(0, 8)) lines.push(`${seconds(task.seconds)} s  ${task.task}`);
  }
  if (files.length) {
    lines.push('', 'portico test: slowest test files');
    for (const file of files) lines.push(`${seconds(file.seconds)} s  ${file.file}`);
  }
  if (cpuFiles) {
    lines.push(
      '',
      `portico test: costliest server test files (CPU; ${cpuFiles.total.toFixed(0)} s in all files)`,
    );
    for (const row of cpuFiles.files) lines.push(`${seconds(row.cpu)} s  ${row.file} (${row.project})`);
  }
  return lines.join('\n');
}
