#!/usr/bin/env node
// `portico-tsc -p tsconfig.json`: TypeScript 7's tsc, whichever TypeScript the calling package holds
// for its build (tsup's declaration build needs TypeScript 6's compiler API).
//
// One checker per program (`--checkers 1`; TypeScript 7 starts four by default): each checker works
// out the shared types (TypeBox's `Static`, Kysely's generics) again for its share of the files, so
// four cost the server's program 69 s of CPU and one 44 s. The test command runs every package's type
// check beside the suites on two cores, where the extra checkers buy no wall time, only CPU.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const typescript = dirname(createRequire(import.meta.url).resolve('typescript/package.json'));
const args = process.argv.slice(2);
const { status, signal } = spawnSync(
  process.execPath,
  [join(typescript, 'bin', 'tsc'), ...(args.includes('--checkers') ? [] : ['--checkers', '1']), ...args],
  { stdio: 'inherit' },
);
process.exit(status ?? (signal ? 1 : 0));
