// The budget of issue 5: the JavaScript the /login route loads first — the entry chunk, its static
// imports, and the chunks of the login routes (layout and index) with their static imports — is at
// most 125 KB brotli (1 KB = 1000 bytes). Reads Vite's manifest, prints the figure, exits 1 when over.
// It also writes .br and .gz siblings of the text assets, which the passport server sends to browsers
// that accept them (@fastify/static `preCompressed`).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 125_000;
/** The modules whose chunks a visit to /login loads (src/router.tsx mounts them through createAuthRoutes). */
export const LOGIN_MODULES = [
  '../../packages/account-pages/src/screens/login-layout.tsx',
  '../../packages/account-pages/src/screens/login.tsx',
];

const dist = fileURLToPath(new URL('../dist', import.meta.url));

export const brotliSize = (buffer) =>
  brotliCompressSync(buffer, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length },
  }).length;

/** The JS files of the given manifest entries and everything they import statically, once each. */
export function closure(manifest, keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The Vite manifest has no entry "${key}"`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files];
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

function precompress() {
  let count = 0;
  for (const path of walk(dist)) {
    if (!/\.(js|css|html|json|svg|txt)$/.test(path) || path.includes(`${join(dist, '.vite')}`)) continue;
    const buffer = readFileSync(path);
    if (buffer.length < 1024) continue;
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(buffer, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${path}.gz`, gzipSync(buffer, { level: 9 }));
    count += 1;
  }
  return count;
}

function main() {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('The Vite manifest has no entry chunk');
  const files = closure(manifest, [entry, ...LOGIN_MODULES]);
  const rows = files
    .map((file) => ({ file, brotli: brotliSize(readFileSync(join(dist, file))) }))
    .sort((a, b) => b.brotli - a.brotli);
  const total = rows.reduce((sum, row) => sum + row.brotli, 0);
  const kb = (bytes) => `${(bytes / 1000).toFixed(2)} KB`;
  console.log('\nJavaScript /login loads first (brotli, quality 11):');
  for (const row of rows) console.log(`  ${kb(row.brotli).padStart(10)}  ${row.file}`);
  console.log(`  ${kb(total).padStart(10)}  total, budget ${kb(BUDGET_BYTES)}`);
  console.log(
    `precompressed ${precompress()} assets (.br, .gz) under ${relative(process.cwd(), dist) || '.'}`,
  );
  if (total > BUDGET_BYTES) {
    console.error(`\nOver budget: /login loads ${kb(total)} of JavaScript, more than ${kb(BUDGET_BYTES)}.`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
