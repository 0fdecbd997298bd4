// What a product team gets from npm, tried as they would: every published package is packed with
// `pnpm pack` (which runs its prepack and rewrites `workspace:` ranges), the tarballs are unpacked into a
// scratch app in the system's temp folder (outside the workspace, so nothing resolves through it), and
// that app imports them in ESM and CJS, type-checks against them with moduleResolution node16,
// nodenext and bundler, and renders account-react with React 18. The app's node_modules holds only the tarballs
// and the third-party packages their package.json files declare (linked from this package's pinned
// copies), so an undeclared dependency fails here as it would for a user.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** The published packages (not `private`), by folder under packages/. */
const PUBLISHED = ['account-sdk', 'account-react', 'affiliate-sdk', 'captcha-loader', 'monitor'];
/** What the scratch app's type checks need beside the declared dependencies. */
const TOOLING = [
  'typescript',
  '@types/react',
  '@types/react-dom',
  'react',
  'react-dom',
  '@tanstack/react-query',
];

/** What the SDK's engines say (every package that reaches it must say the same). */
const sdkEngines = JSON.parse(readFileSync(join(root, 'packages', 'account-sdk', 'package.json'), 'utf8'))
  .engines?.node;
/** Packages with a pending minor or major changeset: a 0.0.0 package publishes first as 0.1.0. */
const firstReleases = new Set();
for (const file of readdirSync(join(root, '.changeset')).filter((f) => f.endsWith('.md'))) {
  const head = readFileSync(join(root, '.changeset', file), 'utf8').split('---')[1] ?? '';
  for (const match of head.matchAll(/"(@portico\/[a-z-]+)":\s*(minor|major)/g)) firstReleases.add(match[1]);
}

const scratch = mkdtempSync(join(tmpdir(), 'portico-package-check-'));
const modules = join(scratch, 'node_modules');
const failures = [];
const step = (what, run) => {
  const started = performance.now();
  try {
    run();
    console.log(`package-check: ok   ${what} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    failures.push(what);
    console.error(`package-check: FAIL ${what}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.message}`);
  }
};

try {
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  // Third-party package → the folder whose node_modules holds the lockfile's copy of it: this package
  // for the tooling (React 18 among it), else the published package that declares it.
  const thirdParty = new Map(TOOLING.map((dep) => [dep, here]));
  for (const name of PUBLISHED) {
    const folder = join(root, 'packages', name);
    step(`pack ${name}`, () => {
      const out = execFileSync('pnpm', ['pack', '--pack-destination', tarballs, '--json'], {
        cwd: folder,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { filename } = JSON.parse(out.slice(out.indexOf('{')));
      const target = join(modules, '@portico', name);
      mkdirSync(target, { recursive: true });
      execFileSync('tar', ['-xzf', filename, '-C', target, '--strip-components=1']);
      const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'));
      if (!existsSync(join(target, 'LICENSE'))) throw new Error(`${name}: no LICENSE in the tarball`);
      if (!existsSync(join(target, 'README.md'))) throw new Error(`${name}: no README.md in the tarball`);
      // `changeset version` writes CHANGELOG.md beside package.json; npm ships it only when `files` names it.
      if (existsSync(join(folder, 'CHANGELOG.md')) !== existsSync(join(target, 'CHANGELOG.md')))
        throw new Error(`${name}: CHANGELOG.md is not in the tarball (add it to "files")`);
      const shipped = JSON.stringify(manifest);
      if (shipped.includes('workspace:')) throw new Error(`${name}: a workspace: range reached the tarball`);
      if (/"source":/.test(shipped)) throw new Error(`${name}: the bare "source" condition is published`);
      for (const field of ['license', 'description', 'exports', 'types', 'keywords'])
        if (!manifest[field]) throw new Error(`${name}: package.json has no ${field}`);
      // Whatever reaches the SDK's ESM-only transport from a CommonJS build needs require(esm).
      const needsEsm =
        name === 'account-sdk' ||
        '@portico/account-sdk' in { ...manifest.dependencies, ...manifest.peerDependencies };
      if (needsEsm && manifest.engines?.node !== sdkEngines)
        throw new Error(`${name}: engines.node is ${manifest.engines?.node}, not the SDK's ${sdkEngines}`);
      if (manifest.version === '0.0.0' && !firstReleases.has(manifest.name))
        throw new Error(`${name}: version 0.0.0 and no minor or major changeset: it would publish as 0.0.x`);
      for (const dep of [
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ])
        if (!dep.startsWith('@portico/') && !thirdParty.has(dep)) thirdParty.set(dep, folder);
    });
  }
  for (const [dep, owner] of thirdParty) {
    const link = join(modules, dep);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(owner, 'node_modules', dep)), link, 'dir');
  }
  cpSync(join(here, 'scratch'), scratch, { recursive: true });

  const node = (file) =>
    execFileSync(process.execPath, [file], { cwd: scratch, encoding: 'utf8', stdio: 'pipe' });
  const tsc = (project) =>
    execFileSync(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', project], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  step('import in ESM (every entry, its main export)', () => node('esm.mjs'));
  step('require in CJS (every entry, its main export)', () => node('cjs.cjs'));
  step('type-check an ESM file, module node16', () => tsc('tsconfig.node16.json'));
  // ky, the SDK's transport, is ESM-only: a CommonJS file reaches it through require(esm), which
  // TypeScript models from module node20/nodenext on (node16 refuses it, as Node 16 did).
  step('type-check a CommonJS file, module nodenext', () => tsc('tsconfig.nodenext-cjs.json'));
  step('type-check, moduleResolution bundler, React 18 types', () => tsc('tsconfig.bundler.json'));
  step('render account-react with React 18 (react-dom/server)', () => {
    const html = node('react18.mjs');
    if (!html.includes('signed out')) throw new Error(`unexpected render: ${html}`);
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`package-check: ${failures.length} failed: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('package-check: every published package installs, imports, type-checks and renders');
