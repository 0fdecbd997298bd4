/** The loader's states (spec §4): 0 not loaded, 1 loading, 2 loaded, 3 failed. */
export const NOT_LOADED = 0;
export const LOADING = 1;
export const LOADED = 2;
export const FAILED = 3;

export type LoaderState = typeof NOT_LOADED | typeof LOADING | typeof LOADED | typeof FAILED;
