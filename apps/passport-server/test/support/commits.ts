import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/**
 * The commits in a SQLite write-ahead log: frames whose header carries the database size after the
 * commit (non-zero only on a transaction's last frame), from the log's current generation (frames
 * whose salts match the header's).
 */
export function commitFrames(wal: Buffer): number {
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}

/**
 * How many transactions `work` committed to the server's main SQLite file: each is one fsync at
 * `synchronous=FULL`, the cost a request pays on the event-loop thread. Counted from the write-ahead
 * log, emptied first and kept from being checkpointed meanwhile, so the count does not depend on the
 * machine's speed. The store's own file (counters, at NORMAL, no fsync per commit) is not counted.
 */
export async function commitsDuring(app: FastifyInstance, work: () => Promise<unknown>): Promise<number> {
  const sqlite = app.database.sqlite;
  if (!sqlite) throw new Error('commitsDuring counts SQLite commits');
  sqlite.pragma('wal_autocheckpoint = 0');
  const [checkpoint] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (checkpoint?.busy !== 0) throw new Error('the write-ahead log could not be emptied');
  await work();
  return commitFrames(readFileSync(`${sqlite.name}-wal`));
}
