// The passport server deployments of a run: each backend at each size, on its own data; on PostgreSQL
// and Redis a schema and a key prefix of this run's own, dropped when the run ends (also after a failure
// or Ctrl-C), so the machine's shared services keep nothing of it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Target } from './ipc.ts';

export type Backend = 'sqlite' | 'postgres';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = randomBytes(4).toString('hex');
const schemas: string[] = [];
const prefixes: string[] = [];
const dataDirs: string[] = [];

/** One deployment: its first server process (which seeds) and what another process of it is started with. */
export interface Deployment {
  backend: Backend;
  size: number;
  env: Record<string, string>;
  main: Target;
}

/** Starts the first server of a deployment (the caller seeds it and stops it). */
export async function deploy(
  backend: Backend,
  size: number,
  start: (name: string, file: string, env: Record<string, string>) => Promise<Target>,
): Promise<Deployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portico-bench-'));
  dataDirs.push(dataDir);
  const env: Record<string, string> = { BENCH_BACKEND: backend, BENCH_DATA_DIR: dataDir };
  if (backend === 'postgres') {
    env.BENCH_SCHEMA = `bench_${run}_${size}`;
    env.BENCH_REDIS_PREFIX = `portico-bench:${run}:${size}:`;
    schemas.push(env.BENCH_SCHEMA);
    prefixes.push(env.BENCH_REDIS_PREFIX);
  }
  return { backend, size, env, main: await start(`portico-${backend}-${size}`, 'portico.ts', env) };
}

/** Drops this run's schemas and Redis keys and removes its data directories (after the servers stopped). */
export async function cleanUp(): Promise<void> {
  if (schemas.length) {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      for (const schema of schemas.splice(0)) await client.query(`drop schema if exists "${schema}" cascade`);
    } finally {
      await client.end();
    }
  }
  if (prefixes.length) {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      for (const prefix of prefixes.splice(0)) {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          if (keys.length) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      }
    } finally {
      redis.disconnect();
    }
  }
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * CPU time, in µs, that the machine's PostgreSQL and Redis processes have used so far (from /proc;
 * Linux only, 0 elsewhere). The services are shared: what other work asks of them during a slice is
 * counted too, so the bench subtracts an idle slice's share.
 */
export function backendMicros(): number {
  let ticks = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    if (!comm.startsWith('postgres') && !comm.startsWith('redis-server')) continue;
    // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  // USER_HZ is 100 on Linux.
  return ticks * 10_000;
}
