import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { MonitorEventRow } from './batch';
import type { WriterData, WriterReply, WriterRequest } from './writer';

/**
 * The monitoring writer thread (./writer.ts starts it): the one connection that writes `monitor.db`.
 * An insert of a few hundred rows, its commit and SQLite's automatic WAL checkpoints block the thread
 * that runs them for milliseconds; here that is not the event loop. Self-contained on purpose: the
 * worker loads this file alone (the main thread created the file, its table and WAL mode).
 */
const { file, insertSql } = workerData as WriterData;
const sqlite = new SQLite(file);
// Per connection: monitoring data may lose its last moments on a power loss (docs/monitoring.md), and
// the main thread's dashboard reads never hold the write lock for long.
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('busy_timeout = 5000');

const insertRow = sqlite.prepare<[MonitorEventRow]>(insertSql);
const insertAll = sqlite.transaction((rows: readonly MonitorEventRow[]) => {
  for (const row of rows) insertRow.run(row);
});
const deleteBefore = sqlite.prepare<[number]>('delete from monitor_events where at < ?');

parentPort?.on('message', (request: WriterRequest) => {
  let reply: WriterReply;
  try {
    if (request.op === 'insert') {
      insertAll(request.rows);
      reply = { id: request.id, value: request.rows.length };
    } else reply = { id: request.id, value: deleteBefore.run(request.at).changes };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
