/** A value with listeners, in the account SDK's observer style: the state holder of this folder's flows. */
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
  };
}

/**
 * Runs one step of a flow: `busy` while it runs, the failure kept in `error` (and rethrown, so the
 * caller may await it), `error` cleared when the step starts.
 */
export function stepper<S extends { busy: boolean; error: unknown }>(
  state: ReturnType<typeof createState<S>>,
) {
  return async <T>(run: () => Promise<T>, after: (value: T) => Partial<S>): Promise<T> => {
    state.set({ ...state.get(), busy: true, error: null });
    try {
      const value = await run();
      state.set({ ...state.get(), busy: false, ...after(value) });
      return value;
    } catch (error) {
      state.set({ ...state.get(), busy: false, error });
      throw error;
    }
  };
}
