import type { createState } from '@portico/account-sdk';

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
