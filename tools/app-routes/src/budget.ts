import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** The part of Vite's build manifest the budget reads. */
export type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;

export const brotliSize = (buffer: Buffer): number =>
  brotliCompressSync(buffer, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length },
  }).length;

/** The JS files of the given manifest entries and everything they import statically, once each. */
export function closure(manifest: Manifest, keys: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
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

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** .br and .gz siblings of the text assets, which the passport server sends to browsers that accept them. */
function precompress(dist: string): number {
  let count = 0;
  for (const path of walk(dist)) {
    if (!/\.(js|css|html|json|svg|txt)$/.test(path) || path.includes(join(dist, '.vite'))) continue;
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

export interface FirstLoadBudget {
  /** What the figure is of, for the build log: '/login'. */
  page: string;
  /** The modules (manifest keys, from the app's root) whose chunks that page loads besides the entry. */
  modules: readonly string[];
  /** The most JavaScript that page may load first, brotli bytes (1 KB = 1000 bytes). */
  budgetBytes: number;
}

/**
 * The JavaScript a page loads first — the entry chunk, its static imports, and the chunks of the page's
 * route modules with theirs — measured (brotli, quality 11) after each build; over the budget, the build
 * fails. Then the text assets are precompressed. Needs `build.manifest: true` (`appBuild` sets it).
 */
export function firstLoadBudget(budget: FirstLoadBudget): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'portico:first-load-budget',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      if (config.build.ssr) return;
      const dist = join(config.root, config.build.outDir);
      const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
      const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
      if (!entry) throw new Error('The Vite manifest has no entry chunk');
      const rows = closure(manifest, [entry, ...budget.modules])
        .map((file) => ({ file, brotli: brotliSize(readFileSync(join(dist, file))) }))
        .sort((a, b) => b.brotli - a.brotli);
      const total = rows.reduce((sum, row) => sum + row.brotli, 0);
      const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} KB`;
      const lines = [`JavaScript ${budget.page} loads first (brotli, quality 11):`];
      for (const row of rows) lines.push(`  ${kb(row.brotli).padStart(10)}  ${row.file}`);
      lines.push(`  ${kb(total).padStart(10)}  total, budget ${kb(budget.budgetBytes)}`);
      lines.push(`precompressed ${precompress(dist)} assets (.br, .gz)`);
      config.logger.info(lines.join('\n'));
      if (total > budget.budgetBytes)
        throw new Error(
          `Over budget: ${budget.page} loads ${kb(total)} of JavaScript, more than ${kb(budget.budgetBytes)}.`,
        );
    },
  };
}
