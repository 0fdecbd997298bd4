// Pending changesets name only what the packages offer. `changeset version` copies every pending
// changeset into the package's CHANGELOG.md, so a changeset that announces an export which no longer
// exists (renamed, folded into another, removed before any release) puts a lie in the changelog. This
// reads each published package's built entry points (dist/*.d.ts, through the TypeScript API) and
// fails when a changeset of a published package names, in backticks, something that looks like an
// export and is not one:
// - `useFoo`, `createFoo`, `<FooBar>` and PascalCase names with two humps (`FooProps`, `AccountInfo`)
//   must be exported by a published package (cross-references such as `createCaptchaLoader` in an
//   account-react entry are fine) or by a third-party dependency (`useQuery`), be named in the
//   published declarations (`QueryClient`), or be a global of the standard or DOM library;
// - any other camelCase name (`smsLogin`, `maxChallenges`, `getSnapshot`) must be one of those, or a
//   name the declarations of the packages or their dependencies contain (an option, a field, a method,
//   a string literal type such as `'loadJSSDK'`).
// A name written as a prefix (`createSubjectBy*`) must begin an export or a declared name.
// Only the head of a span and names called in it are read (`client.use(monitorPlugin(m))` checks
// `monitorPlugin`); fenced code blocks, snake_case fields and UPPER_CASE names (error names, server
// settings) are left alone. Changesets that touch only private packages are not read.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** The names a span of inline code refers to, each with the rule it is held to. */
export function namesIn(span) {
  const found = [];
  const jsx = span.match(/^<\s*([A-Za-z][\w$]*)/);
  if (jsx) {
    if (/^[A-Z]/.test(jsx[1])) found.push({ name: jsx[1], rule: 'export' });
    return found;
  }
  const head = span.match(/^[A-Za-z_$][\w$]*/)?.[0];
  const names = new Set(head ? [head] : []);
  for (const call of span.matchAll(/([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\(/g)) names.add(call[1]);
  for (const name of names) {
    const wildcard = name === head && span.startsWith(`${head}*`);
    if (/^(use|create)[A-Z]/.test(name) || /^[A-Z][a-z0-9]+[A-Z]\w*$/.test(name))
      found.push({ name, rule: 'export', wildcard });
    else if (/^[a-z][a-z0-9]*[A-Z][\w$]*$/.test(name)) found.push({ name, rule: 'known', wildcard });
  }
  return found;
}

/** Inline code spans of a changeset's body, fenced blocks left out. */
export function spansIn(body) {
  const prose = body.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\s+/g, ' ').trim());
}

/** `{ packages, body }` of a changeset file's text. */
export function parseChangeset(text) {
  const match = text.match(/^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/);
  if (!match) return { packages: [], body: text };
  const packages = [...match[1].matchAll(/^\s*["']([^"']+)["']\s*:\s*\w+/gm)].map((m) => m[1]);
  return { packages, body: match[2] };
}

// The extraction itself, on lines the check must catch and lines it must let through.
const selfTest = [
  ['installChallenge(client, { captcha })', ['installChallenge:known']],
  ['client.use(monitorPlugin(monitor))', ['monitorPlugin:known']],
  ['<AccountProvider client={c}>', ['AccountProvider:export']],
  ['<select>', []],
  ['useSendCode({ channel, type })', ['useSendCode:export']],
  ['ErrorCode.identifierTaken === 1801', ['ErrorCode:export']],
  ['smsLogin<MyData>(…)', ['smsLogin:known']],
  ['retry_time', []],
  ['CODE_COOLDOWN', []],
];
for (const [span, expected] of selfTest) {
  const got = namesIn(span).map((n) => `${n.name}:${n.rule}`);
  if (got.join() !== expected.join())
    throw new Error(`changesets: namesIn(${JSON.stringify(span)}) is ${got.join()}, not ${expected.join()}`);
}
if (spansIn('a `x`\n```ts\nconst `y`\n```\n`z`').join() !== 'x,z')
  throw new Error('changesets: spansIn reads fenced code');

// Published packages, their entry points' declarations, and their third-party dependencies' types.
const packages = [];
const thirdParty = new Map();
for (const folder of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', folder);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.private) continue;
  const entries = Object.entries(manifest.exports ?? {})
    .filter(([key]) => key !== './package.json')
    .map(([key, target]) => ({ key, file: join(dir, target.import?.types ?? target.types) }));
  packages.push({ name: manifest.name, dir, entries });
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
    if (!dep.startsWith('@portico/') && !thirdParty.has(dep)) thirdParty.set(dep, join(dir, 'index.ts'));
}
const options = {
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2024,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2024.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
};
const dependencyFiles = new Map();
for (const [dep, from] of thirdParty) {
  const resolved = ts.resolveModuleName(dep, from, options, ts.sys).resolvedModule?.resolvedFileName;
  if (resolved) dependencyFiles.set(dep, resolved);
}
const entryFiles = packages.flatMap((p) => p.entries.map((e) => e.file));
const program = ts.createProgram([...entryFiles, ...dependencyFiles.values()], options);
const checker = program.getTypeChecker();
const exportsOf = (file) => {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`changesets: ${file} is missing: build the packages first (turbo run build)`);
  const symbol = checker.getSymbolAtLocation(source);
  return symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : [];
};
const identifiersOf = (file, into) => {
  const visit = (node) => {
    // String literal types name values too: `type: 'settings' | 'loadJSSDK'`.
    if (ts.isIdentifier(node) || ts.isStringLiteral(node)) into.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
};
/** name → the published packages (with entry) that export it. */
const exported = new Map();
for (const pkg of packages)
  for (const entry of pkg.entries)
    for (const name of exportsOf(entry.file)) {
      if (!exported.has(name)) exported.set(name, new Set());
      exported.get(name).add(entry.key === '.' ? pkg.name : `${pkg.name}${entry.key.slice(1)}`);
    }
/** What the third-party dependencies export (`useQuery`, `QueryClient`). */
const dependencyExports = new Set([...dependencyFiles.values()].flatMap(exportsOf));
/** Identifiers of the published packages' declarations, and of every declaration file besides the libs. */
const declared = new Set();
const declaredAnywhere = new Set();
for (const file of program.getSourceFiles()) {
  if (program.isSourceFileDefaultLibrary(file)) continue;
  identifiersOf(file, declaredAnywhere);
  if (packages.some((p) => file.fileName.startsWith(join(p.dir, 'dist')))) identifiersOf(file, declared);
}
const lib = program.getSourceFiles().find((f) => f.fileName.endsWith('lib.es5.d.ts'));
const globals = new Set(
  checker.getSymbolsInScope(lib, ts.SymbolFlags.Type | ts.SymbolFlags.Value).map((s) => s.name),
);
/** `createSubjectBy*` stands for the exports it begins. */
const known = (name, wildcard, test) =>
  wildcard ? [...exported.keys(), ...declared].some((n) => n.startsWith(name)) : test(name);
const isExport = (name) =>
  exported.has(name) ||
  dependencyExports.has(name) ||
  globals.has(name) ||
  (/^[A-Z]/.test(name) && declared.has(name));
const isKnown = (name) => isExport(name) || declaredAnywhere.has(name);

const published = new Set(packages.map((p) => p.name));
const problems = [];
let read = 0;
let checked = 0;
const folder = join(root, '.changeset');
for (const file of readdirSync(folder).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
  const { packages: named, body } = parseChangeset(readFileSync(join(folder, file), 'utf8'));
  const ours = named.filter((name) => published.has(name));
  if (ours.length === 0) continue;
  read++;
  for (const span of spansIn(body)) {
    for (const { name, rule, wildcard } of namesIn(span)) {
      checked++;
      if (known(name, wildcard, rule === 'export' ? isExport : isKnown)) continue;
      problems.push(
        rule === 'export'
          ? `.changeset/${file}: \`${name}\` (in \`${span}\`) is not exported by ${ours.join(', ')} nor by another published package or a dependency`
          : `.changeset/${file}: \`${name}\` (in \`${span}\`) is neither exported nor declared by the published packages and their dependencies`,
      );
    }
  }
}
if (problems.length > 0) {
  console.error(
    `changesets: ${problems.length} name(s) that the packages do not offer would reach a CHANGELOG.md:\n` +
      problems.map((p) => `  ${p}`).join('\n'),
  );
  process.exit(1);
}
console.log(
  `changesets: ok, ${checked} names in ${read} changesets of published packages are exported or declared`,
);
