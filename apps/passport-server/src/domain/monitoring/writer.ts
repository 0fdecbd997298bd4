import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pendingReplies } from '../../lib/replies';
import type { MonitorEventRow } from './batch';

/** What the writer thread is started with. */
export interface WriterData {
  /** `monitor.db`: created, with its table, by the main thread before the first write. */
  file: string;
  /** The prepared insert of one row, named parameters (./store.ts builds it from the row's columns). */
  insertSql: string;
}

type WriterOp = { op: 'insert'; rows: readonly MonitorEventRow[] } | { op: 'deleteBefore'; at: number };
export type WriterRequest = WriterOp & { id: number };

export type WriterReply = { id: number; value: number } | { id: number; error: string };

/** The writes of the monitoring store on SQLite, done by a thread of their own. */
export interface MonitorWriter {
  insert(rows: readonly MonitorEventRow[]): Promise<void>;
  /** Deletes events older than `at`; returns how many. */
  deleteBefore(at: number): Promise<number>;
  /** Ends the thread once the writes sent to it are done. */
  close(): Promise<void>;
}

/**
 * One worker thread that owns the write connection to `monitor.db` (./writer-worker.ts). Started on the
 * first write, so a server that collects nothing starts no thread; unreferenced, so it never holds the
 * process open. A thread that fails (it could not open the file, say) fails the writes waiting on it,
 * and the next write starts another. The worker is the .ts file beside this one when the server runs
 * from its sources, the built .js beside the bundle otherwise.
 */
export function monitorWriter(data: WriterData): MonitorWriter {
  let worker: Worker | undefined;
  const replies = pendingReplies<number>();
  const inFlight = new Set<Promise<number>>();

  function started(): Worker {
    if (worker) return worker;
    const thread = new Worker(
      new URL(`./writer-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
      { workerData: data },
    );
    thread.unref();
    thread.on('message', (reply: WriterReply) => {
      replies.settle(reply.id, 'error' in reply ? { error: new Error(`monitor.db: ${reply.error}`) } : reply);
    });
    const gone = (error: Error) => {
      if (worker === thread) worker = undefined;
      replies.failAll(error);
    };
    thread.on('error', gone);
    thread.on('exit', (code) => gone(new Error(`the monitoring writer thread exited (${code})`)));
    worker = thread;
    return thread;
  }

  function send(op: WriterOp): Promise<number> {
    const answer = replies.ask((id) => started().postMessage({ ...op, id } satisfies WriterRequest));
    inFlight.add(answer);
    const settled = () => inFlight.delete(answer);
    answer.then(settled, settled);
    return answer;
  }

  return {
    async insert(rows) {
      if (rows.length) await send({ op: 'insert', rows });
    },
    deleteBefore: (at) => send({ op: 'deleteBefore', at }),
    async close() {
      // The writes already sent are finished first, then the thread ends.
      await Promise.allSettled([...inFlight]);
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
    },
  };
}
