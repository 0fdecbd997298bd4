/**
 * The defaults a client reads when it is created, one constant each: a page then carries these values
 * and not the tables of `defaults.ts`, which are built from them (the one place they are written).
 * Not part of `@portico/account-sdk/protocol`: read them there as `CLIENT_DEFAULTS` and `TIMEOUTS`.
 */
export const DEFAULT_DID = '0';
export const DEFAULT_IID = '0';
export const DEFAULT_REGION = 'sg';
export const DEFAULT_LANGUAGE = 'zh';
/** Per-request timeout, ms. */
export const REQUEST_TIMEOUT = 5000;
/** How long a request waits for the fingerprint, ms. */
export const FINGERPRINT_WAIT = 1000;
