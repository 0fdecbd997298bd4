#!/usr/bin/env node
// `portico-tsc -p tsconfig.json`: TypeScript 7's tsc, whichever TypeScript the calling package holds
// for its build (tsup's declaration build needs TypeScript 6's compiler API).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const typescript = dirname(createRequire(import.meta.url).resolve('typescript/package.json'));
const { status, signal } = spawnSync(
  process.execPath,
  [join(typescript, 'bin', 'tsc'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(status ?? (signal ? 1 : 0));
