// Instructions per request, counted by Valgrind's callgrind in the server's process (every thread: the
// event loop, the JIT's and the garbage collector's). The count is of the program's own instructions,
// not of time: another process on the machine cannot move it, so a before/after of the request path
// reads the same at any load. Targets run under callgrind with its instrumentation off (so they start
// and warm up at a few times native speed); it is switched on for the counted requests only.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Target } from './ipc.ts';
import { type LoadCase, load } from './load.ts';

/** Runs a target's Node under callgrind, its dumps in `dir`, counting nothing until told. */
export const underCallgrind = (dir: string) => ({
  path: 'valgrind',
  args: [
    '--tool=callgrind',
    '--instr-atstart=no',
    // V8 writes the machine code it runs: Valgrind must notice code that changes.
    '--smc-check=all-non-file',
    `--callgrind-out-file=${join(dir, 'callgrind.%p.out')}`,
  ],
});

/** Requests per load run: a run under instrumentation is slow, and a load may run MAX_SECONDS at most. */
const CHUNK = 100;
/**
 * Connections of a counted load, the same for every target: few, so that a request waits for no more
 * than a handful ahead of it on a server slowed down many times (the load's timeout is 10 s).
 */
const CONNECTIONS = 4;

const control = (target: Target, ...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(target.pid)], { stdio: 'pipe' });

async function send(c: LoadCase, n: number): Promise<void> {
  for (let sent = 0; sent < n; sent += CHUNK) {
    const sample = await load({
      ...c,
      connections: CONNECTIONS,
      amount: Math.min(CHUNK, n - sent),
      warmupSeconds: 0,
    });
    if (sample.failures) throw new Error(`${sample.failures} of the counted requests failed`);
  }
}

/** The instructions `n` requests of `c` cost the target, per request (warm: `warm` requests first). */
export async function instructionsPerRequest(
  target: Target,
  c: LoadCase,
  { n, warm, dir }: { n: number; warm: number; dir: string },
): Promise<number> {
  await send(c, warm);
  control(target, '--zero');
  control(target, '--instr=on');
  await send(c, n);
  control(target, '--dump');
  control(target, '--instr=off');
  const prefix = `callgrind.${target.pid}.out.`;
  const dumps = readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
  const last = dumps.at(-1);
  if (!last) throw new Error(`callgrind wrote no dump for ${target.name}`);
  const totals = /^totals: (\d+)/m.exec(readFileSync(join(dir, last), 'utf8'));
  if (!totals) throw new Error(`no totals in ${last}`);
  return Number(totals[1]) / n;
}
