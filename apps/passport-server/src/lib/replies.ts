/**
 * Requests sent to another thread or process, each waiting for the reply that carries its id: the
 * request/reply channel of the monitoring writer thread and of the render process.
 */
export interface PendingReplies<T> {
  /** Gives the request an id, hands it to `post`, and answers with its reply. */
  ask(post: (id: number) => void): Promise<T>;
  /** Settles the request with this id (a reply, or a failure to deliver it); unknown ids are ignored. */
  settle(id: number, outcome: { value: T } | { error: unknown }): void;
  /** Fails every request still waiting (the other side is gone). */
  failAll(error: unknown): void;
}

export function pendingReplies<T>(): PendingReplies<T> {
  let nextId = 0;
  const waiting = new Map<number, { resolve(value: T): void; reject(error: unknown): void }>();
  return {
    ask(post) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        post(id);
      });
    },
    settle(id, outcome) {
      const waiter = waiting.get(id);
      if (!waiter) return;
      waiting.delete(id);
      if ('error' in outcome) waiter.reject(outcome.error);
      else waiter.resolve(outcome.value);
    },
    failAll(error) {
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
    },
  };
}
