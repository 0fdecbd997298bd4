/** What a stateful flow exposes, in TanStack Query's observer style: read the state, be told of changes. */
export interface Observable<S> {
  /** The current state; the same object until it changes, so `useSyncExternalStore` can compare it. */
  getSnapshot(): S;
  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * A value with listeners: the state holder every flow is built on (this folder's, and the affiliate
 * SDK's), so a flow's snapshot is an `Observable`.
 */
export function createState<S>(initial: S) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next: S) {
      if (Object.is(next, state)) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get listening() {
      return listeners.size > 0;
    },
  };
}
