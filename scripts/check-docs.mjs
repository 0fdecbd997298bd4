// The docs and READMEs are for people who have only this repository: they cite nothing outside it
// (no design files, no spec sections, no issue numbers of our tracker) and every relative link they
// make points at a file that exists. Run by `pnpm test` (scripts/test.mjs).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const skip = new Set([
  'node_modules',
  'dist',
  '.git',
  '.tools',
  '.turbo',
  'test-results',
  'playwright-report',
]);

function markdownFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...markdownFiles(path));
    // Changelogs and changesets record history in their own words.
    else if (name.endsWith('.md') && name !== 'CHANGELOG.md' && !path.includes('/.changeset/'))
      found.push(path);
  }
  return found;
}

/** What a reader outside our team cannot follow. */
const outside = [
  [/\bissues? #?\d+\b/i, 'an issue number of the tracker'],
  [/(^|[\s(])#\d{1,3}\b/, 'an issue number of the tracker'],
  [/(?<!RFC \d+ )§\s?\d/, 'a section of the product spec'],
  [/\b(SECURITY|ARCHITECTURE|STYLE|TOOLCHAIN)\.md\b/, 'a design file outside the repository'],
  [/\.\.\/shared\b|account-spec\.md/, 'a file outside the repository'],
];

const problems = [];
for (const file of markdownFiles(root)) {
  const text = readFileSync(file, 'utf8');
  const rel = relative(root, file);
  let inFence = false;
  text.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('```')) inFence = !inFence;
    if (inFence) return;
    for (const [pattern, what] of outside)
      if (pattern.test(line)) problems.push(`${rel}:${index + 1}: ${what}: ${line.trim().slice(0, 120)}`);
    for (const [, target] of line.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
      if (!existsSync(resolve(dirname(file), decodeURI(target))))
        problems.push(`${rel}:${index + 1}: a link to a missing file: ${target}`);
    }
  });
}
if (problems.length > 0) {
  console.error(`check-docs: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('check-docs: every doc cites only the repository, and every relative link resolves');
