/** What the parent and the targets agree on. */

/** The password every seeded account has (one argon2id hash, computed once by the server). */
export const SEED_PASSWORD = 'bench-password-7Qm2';

/** Seeded account i: a valid Chinese mobile and an e-mail, both unique. */
export const mobileOf = (i: number): string => `+86138${String(i).padStart(8, '0')}`;
export const emailOf = (i: number): string => `user${i}@bench.example`;

/** The passport server's argon2id parameters (apps/passport-server/src/plugins/app/passwords.ts). */
export const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** The initial access token the bench's servers accept for RFC 7591 client registration (loopback only). */
export const BENCH_REGISTRATION_TOKEN = 'bench-initial-access-token-0123456789abcdef';
