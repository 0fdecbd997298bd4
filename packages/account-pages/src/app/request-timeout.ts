/**
 * How long a call from Portico's own pages may take before the page reports it failed: 20 s, not the
 * SDK's 5 s default. A sign-up or a password sign-in hashes with argon2id and may send a message; on a
 * busy server that can pass 5 s, and a person would rather see the busy button a little longer than an
 * error for a request the server then completes (and an account they cannot register "again").
 */
export const PAGE_REQUEST_TIMEOUT_MS = 20_000;
