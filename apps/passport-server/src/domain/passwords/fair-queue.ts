/**
 * A fair queue in front of one scarce worker (the password strength estimator): jobs wait per source
 * (a client network) and per account, each with a few places of its own, and the worker takes one job
 * from each waiting source in turn. A source that sends many jobs fills only its own places; a newcomer
 * waits at most one job per other waiting source, never behind a stranger's backlog.
 *
 * Bounds: `perSource` jobs waiting per source and `perAccount` per account (past either, that request
 * alone is refused); `total` jobs waiting in all. At `total`, the newest job of the source with the most
 * waiting is refused to make room (the newcomer itself only when its own source is that one): the many
 * refuse the many, never the one.
 */
export interface FairQueueBounds {
  perSource: number;
  perAccount: number;
  total: number;
  /** Jobs run at once. */
  concurrency: number;
}

/** Who a job is for: the client network it came from, and the account it concerns (if any). */
export interface JobOwner {
  source: string;
  account?: string | undefined;
}

interface Waiting<T> {
  owner: JobOwner;
  start(): Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Why a job was not taken: its source or its account is at its bound, or it was pushed out at `total`. */
export class QueueFull extends Error {
  constructor(readonly reason: 'source' | 'account' | 'displaced') {
    super(`queue full (${reason})`);
  }
}

export class FairQueue<T> {
  /** Waiting jobs per source, sources in the order they will be served. */
  private readonly sources = new Map<string, Waiting<T>[]>();
  private readonly accounts = new Map<string, number>();
  private waiting = 0;
  private running = 0;

  constructor(private readonly bounds: FairQueueBounds) {}

  /** Jobs waiting (not running), for the tests and the logs. */
  get size(): number {
    return this.waiting;
  }

  /** Runs `start` when its turn comes; rejects with QueueFull when it cannot wait. */
  run(owner: JobOwner, start: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.running < this.bounds.concurrency && this.waiting === 0) {
        this.launch({ owner, start, resolve, reject });
        return;
      }
      const queue = this.sources.get(owner.source) ?? [];
      if (queue.length >= this.bounds.perSource) return reject(new QueueFull('source'));
      if (owner.account !== undefined && (this.accounts.get(owner.account) ?? 0) >= this.bounds.perAccount)
        return reject(new QueueFull('account'));
      if (this.waiting >= this.bounds.total && !this.displaceFor(owner.source, queue.length))
        return reject(new QueueFull('displaced'));
      queue.push({ owner, start, resolve, reject });
      this.sources.set(owner.source, queue);
      this.waiting += 1;
      if (owner.account !== undefined)
        this.accounts.set(owner.account, (this.accounts.get(owner.account) ?? 0) + 1);
    });
  }

  /** Refuses the newest job of the fullest other source, if it holds more than `mine`; true if room was made. */
  private displaceFor(source: string, mine: number): boolean {
    let fullest: Waiting<T>[] | undefined;
    for (const [key, queue] of this.sources) {
      if (key !== source && queue.length > mine && queue.length >= (fullest?.length ?? 0)) fullest = queue;
    }
    const pushed = fullest?.pop();
    if (!pushed) return false;
    this.forget(pushed);
    pushed.reject(new QueueFull('displaced'));
    return true;
  }

  private forget(job: Waiting<T>) {
    this.waiting -= 1;
    const { source, account } = job.owner;
    if (this.sources.get(source)?.length === 0) this.sources.delete(source);
    if (account !== undefined) {
      const left = (this.accounts.get(account) ?? 1) - 1;
      if (left > 0) this.accounts.set(account, left);
      else this.accounts.delete(account);
    }
  }

  /** The next job in turn: the first waiting source's oldest, that source moved to the back. */
  private next(): Waiting<T> | undefined {
    for (const [source, queue] of this.sources) {
      const job = queue.shift();
      this.sources.delete(source);
      if (!job) continue;
      if (queue.length) this.sources.set(source, queue);
      this.forget(job);
      return job;
    }
    return undefined;
  }

  private launch(job: Waiting<T>) {
    this.running += 1;
    let started: Promise<T>;
    try {
      started = job.start();
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(job.resolve, job.reject).finally(() => {
      this.running -= 1;
      const next = this.next();
      if (next) this.launch(next);
    });
  }
}
