// Where a process's CPU went, from a V8 .cpuprofile (node --cpu-prof): self time per function and per
// package, idle and garbage collection apart. Used by BENCH_ONLY=session-cost with BENCH_PROFILE=1.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The package (or node: / the server's own code) a script URL belongs to. */
function packageOf(url: string): string {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node';
  const at = url.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const rest = url.slice(at + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.includes('/passport-server/')) return 'passport-server';
  return url.split('/').slice(-2).join('/');
}

/** The top functions by self time and the share of each package, from every profile in `dir`. */
export function summariseProfiles(dir: string, top = 25): string[] {
  const self = new Map<string, number>();
  const packages = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: ProfileNode[] };
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      const { functionName, url, lineNumber } = node.callFrame;
      if (!hits || functionName === '(idle)') continue;
      total += hits;
      const name = `${functionName || '(anonymous)'} ${url ? `${url.split('/').slice(-1)[0]}:${lineNumber + 1}` : ''}`;
      self.set(name, (self.get(name) ?? 0) + hits);
      const pkg = url ? packageOf(url) : functionName;
      packages.set(pkg, (packages.get(pkg) ?? 0) + hits);
    }
  }
  const share = (n: number) => `${((100 * n) / Math.max(1, total)).toFixed(1)} %`;
  const sorted = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    '| package (self time, idle excluded) | share |',
    '|---|---:|',
    ...sorted(packages, 15).map(([name, hits]) => `| ${name} | ${share(hits)} |`),
    '',
    '| function (self time) | share |',
    '|---|---:|',
    ...sorted(self, top).map(([name, hits]) => `| \`${name.trim()}\` | ${share(hits)} |`),
  ];
}

/**
 * IPC handlers for a target: V8's sampling profiler over the measured window only (node --cpu-prof
 * would profile the start and the seeding too), written as a .cpuprofile into `dir`.
 */
export function profilerHandlers() {
  let session: Session | undefined;
  return {
    profileStart: async () => {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    profileStop: async ({ dir }: { dir: string }) => {
      if (!session) throw new Error('profileStart first');
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
      session = undefined;
    },
  };
}
