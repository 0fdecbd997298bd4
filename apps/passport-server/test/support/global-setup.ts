// Once per run, before any file: a fresh CPU-per-file log (test/support/cpu-per-file.ts appends to it).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  rmSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'cpu.jsonl'), {
    force: true,
  });
}
