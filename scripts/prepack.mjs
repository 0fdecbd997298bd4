// `prepack` of every published package (npm and pnpm run it before pack and publish): a tarball of an
// unbuilt package would ship empty, and the licence must travel with the code. It builds only when
// dist/ is missing or older than the sources, so a pack during the test command (attw --pack) never
// rewrites a dist/ that another package's tests are reading.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const packageDir = process.cwd();

/** The newest (or oldest) modification time of the files under `dir`. */
function mtimes(dir) {
  const times = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) times.push(statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return times;
}

const dist = join(packageDir, 'dist');
const sources = [
  join(packageDir, 'src'),
  join(packageDir, 'package.json'),
  join(packageDir, 'tsup.config.ts'),
];
const newestSource = Math.max(
  ...sources
    .filter(existsSync)
    .flatMap((path) => (statSync(path).isDirectory() ? mtimes(path) : [statSync(path).mtimeMs])),
);
const distTimes = existsSync(dist) ? mtimes(dist) : [];
if (distTimes.length === 0 || Math.min(...distTimes) < newestSource) {
  // tsup's report goes to stderr: `pnpm pack --json` answers on stdout, and the build must not mix in.
  const { status } = spawnSync('tsup', [], { stdio: ['ignore', 2, 2], cwd: packageDir });
  if (status !== 0) process.exit(status ?? 1);
}
copyFileSync(new URL('../LICENSE', import.meta.url), join(packageDir, 'LICENSE'));
