import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every setting the server reads from its environment has a row in the README's settings table: a
 * setting that exists only in the code is one nobody can find.
 */
const root = join(import.meta.dirname, '..');
const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => readFileSync(join(root, 'src', file), 'utf8'));

function settingsRead(): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    // `e.NAME` / `env.NAME` reads, and the keys of the TypeBox schema of the environment.
    for (const match of source.matchAll(/\b(?:e|env)\.([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g))
      names.add(match[1]!);
    for (const match of source.matchAll(/^\s+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+): Type\./gm))
      names.add(match[1]!);
    for (const match of source.matchAll(/hostVariable: '([A-Z][A-Z0-9_]+)'/g)) names.add(match[1]!);
  }
  return [...names].sort();
}

describe('the settings table', () => {
  it('lists every setting the server reads', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.split('\n').filter((line) => line.startsWith('| `'));
    const documented = new Set(
      table.flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1])),
    );
    const read = settingsRead();
    expect(read.length).toBeGreaterThan(25);
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });
});
