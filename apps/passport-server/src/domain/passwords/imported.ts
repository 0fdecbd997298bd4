import { createCipheriv, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { verify as verifyArgon2 } from '@node-rs/argon2';
import { verify as verifyBcrypt } from '@node-rs/bcrypt';

/**
 * Password hashes brought from another provider (docs/importing-users.md), kept as they were made and
 * judged at the person's next sign-in; a right password is then rehashed to argon2id
 * (`Passwords.needsRehash` answers true for every one of them). Each is stored in `users.password_hash`
 * as a PHC-style string that names its algorithm and carries its parameters:
 *
 * - bcrypt as it is: `$2a$`, `$2b$`, `$2y$` (Auth0, Supabase, Clerk);
 * - argon2 as it is: `$argon2id$`, `$argon2i$`, `$argon2d$` (Clerk);
 * - `$scrypt$ln=14,r=16,p=1$<salt>$<key>`: plain scrypt (Better Auth);
 * - `$firebase-scrypt$ln=14,r=8$<salt separator>$<signer key>$<salt>$<hash>`: Firebase's variant;
 * - `$pbkdf2-sha256$i=600000$<salt>$<key>` (and `-sha512`, `-sha1`): PBKDF2 (Clerk's Django digests).
 *
 * Salts, keys and hashes are standard base64. Every check runs on the thread pool (node:crypto's async
 * scrypt and pbkdf2, the native bcrypt and argon2 bindings), never on the event loop, and compares in
 * constant time. The costs are bounded (IMPORTED_COST_LIMITS): a hash beyond them is refused at import
 * and judged wrong at sign-in, so no file can make a sign-in cost seconds of CPU.
 */

/** The most an imported hash may cost to check. */
export const IMPORTED_COST_LIMITS = {
  bcryptCost: 14,
  /** log2 of scrypt's N. */
  scryptLogN: 17,
  scryptR: 32,
  scryptP: 4,
  /** scrypt's memory, 128·N·r·p bytes. */
  scryptBytes: 256 * 1024 * 1024,
  pbkdf2Iterations: 2_000_000,
  argon2MemoryKiB: 256 * 1024,
  argon2Passes: 10,
} as const;

const scryptAsync = promisify(scrypt) as (
  password: string | Buffer,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
const pbkdf2Async = promisify(pbkdf2);

const b64 = (value: Buffer) => value.toString('base64');
/** Standard or URL-safe base64, with or without padding (Firebase's exports use both). */
export const fromBase64 = (value: string) =>
  Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
const isBase64 = (value: string) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value);

/** The parameters of one `k=v,k=v` group, as integers; null when any is not one. */
function params(text: string | undefined): Record<string, number> | null {
  if (text === undefined) return null;
  const out: Record<string, number> = {};
  for (const part of text.split(',')) {
    const match = /^([a-z]+)=(\d{1,9})$/.exec(part);
    if (!match) return null;
    out[match[1] as string] = Number(match[2]);
  }
  return out;
}

type Parsed =
  | { kind: 'bcrypt'; cost: number }
  | { kind: 'argon2'; memoryKiB: number; passes: number }
  | { kind: 'scrypt'; logN: number; r: number; p: number; salt: Buffer; key: Buffer }
  | {
      kind: 'firebase-scrypt';
      logN: number;
      r: number;
      separator: Buffer;
      signerKey: Buffer;
      salt: Buffer;
      hash: Buffer;
    }
  | { kind: 'pbkdf2'; digest: 'sha1' | 'sha256' | 'sha512'; iterations: number; salt: Buffer; key: Buffer };

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const ARGON2 = /^\$argon2(?:id|i|d)\$(?:v=\d+\$)?m=(\d+),t=(\d+),p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/** What an imported hash string says, or null when it is none of the formats above. */
function parse(stored: string): Parsed | null {
  const bcrypt = BCRYPT.exec(stored);
  if (bcrypt) return { kind: 'bcrypt', cost: Number(bcrypt[1]) };
  const argon2 = ARGON2.exec(stored);
  if (argon2) return { kind: 'argon2', memoryKiB: Number(argon2[1]), passes: Number(argon2[2]) };
  const parts = stored.split('$');
  if (parts[0] !== '') return null;
  const fields = parts.slice(3);
  if (!fields.every((field) => field.length > 0 && isBase64(field))) return null;
  const [salt, key, third, fourth] = fields.map(fromBase64) as Buffer[];
  const p = params(parts[2]);
  if (!p) return null;
  switch (parts[1]) {
    case 'scrypt':
      if (fields.length !== 2 || p.ln === undefined || p.r === undefined || p.p === undefined) return null;
      return { kind: 'scrypt', logN: p.ln, r: p.r, p: p.p, salt: salt as Buffer, key: key as Buffer };
    case 'firebase-scrypt':
      if (fields.length !== 4 || p.ln === undefined || p.r === undefined) return null;
      return {
        kind: 'firebase-scrypt',
        logN: p.ln,
        r: p.r,
        separator: salt as Buffer,
        signerKey: key as Buffer,
        salt: third as Buffer,
        hash: fourth as Buffer,
      };
    case 'pbkdf2-sha1':
    case 'pbkdf2-sha256':
    case 'pbkdf2-sha512':
      if (fields.length !== 2 || p.i === undefined) return null;
      return {
        kind: 'pbkdf2',
        digest: parts[1].slice('pbkdf2-'.length) as 'sha1' | 'sha256' | 'sha512',
        iterations: p.i,
        salt: salt as Buffer,
        key: key as Buffer,
      };
    default:
      return null;
  }
}

/** Why an imported hash cannot be kept (a format this server cannot judge, or a cost past the limits), or null. */
export function importedHashProblem(stored: string): string | null {
  const parsed = parse(stored);
  if (!parsed) return 'unknown_hash_format';
  const L = IMPORTED_COST_LIMITS;
  switch (parsed.kind) {
    case 'bcrypt':
      return parsed.cost >= 4 && parsed.cost <= L.bcryptCost ? null : 'hash_cost_out_of_range';
    case 'argon2':
      return parsed.memoryKiB <= L.argon2MemoryKiB && parsed.passes <= L.argon2Passes
        ? null
        : 'hash_cost_out_of_range';
    case 'scrypt':
    case 'firebase-scrypt': {
      const p = parsed.kind === 'scrypt' ? parsed.p : 1;
      const bytes = 128 * 2 ** parsed.logN * parsed.r * p;
      const inRange =
        parsed.logN >= 1 &&
        parsed.logN <= L.scryptLogN &&
        parsed.r >= 1 &&
        parsed.r <= L.scryptR &&
        p >= 1 &&
        p <= L.scryptP &&
        bytes <= L.scryptBytes;
      if (!inRange) return 'hash_cost_out_of_range';
      if (parsed.kind === 'scrypt') return parsed.key.length >= 16 ? null : 'unknown_hash_format';
      return parsed.signerKey.length > 0 && parsed.hash.length === parsed.signerKey.length
        ? null
        : 'unknown_hash_format';
    }
    case 'pbkdf2':
      if (parsed.iterations < 1 || parsed.iterations > L.pbkdf2Iterations) return 'hash_cost_out_of_range';
      return parsed.key.length >= 16 ? null : 'unknown_hash_format';
  }
}

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Judges `password` (already normalised) against an imported hash; false for a wrong password and for
 * a hash this server cannot judge or whose cost is past the limits.
 */
export async function verifyImported(stored: string, password: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || importedHashProblem(stored)) return false;
  try {
    switch (parsed.kind) {
      case 'bcrypt':
        return await verifyBcrypt(password, stored);
      case 'argon2':
        return await verifyArgon2(stored, password);
      case 'scrypt': {
        const N = 2 ** parsed.logN;
        const key = await scryptAsync(password, parsed.salt, parsed.key.length, {
          N,
          r: parsed.r,
          p: parsed.p,
          maxmem: 2 * 128 * N * parsed.r * parsed.p,
        });
        return same(key, parsed.key);
      }
      case 'firebase-scrypt':
        return same(await firebaseHash(password, parsed), parsed.hash);
      case 'pbkdf2': {
        const key = await pbkdf2Async(
          password,
          parsed.salt,
          parsed.iterations,
          parsed.key.length,
          parsed.digest,
        );
        return same(key, parsed.key);
      }
    }
  } catch {
    return false;
  }
}

/**
 * Firebase's modified scrypt (its published algorithm, github.com/firebase/scrypt): scrypt of the
 * password with the salt followed by the project's salt separator (N = 2^mem_cost, r = rounds, p = 1,
 * 64 bytes), whose first 32 bytes key AES-256-CTR (a zero counter) over the project's signer key.
 */
async function firebaseHash(
  password: string,
  parsed: Extract<Parsed, { kind: 'firebase-scrypt' }>,
): Promise<Buffer> {
  const N = 2 ** parsed.logN;
  const derived = await scryptAsync(password, Buffer.concat([parsed.salt, parsed.separator]), 64, {
    N,
    r: parsed.r,
    p: 1,
    maxmem: 2 * 128 * N * parsed.r,
  });
  const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), Buffer.alloc(16));
  return Buffer.concat([cipher.update(parsed.signerKey), cipher.final()]);
}

/** The stored forms, as the import writes them from a provider's fields. */
export const importedHash = {
  scrypt: (o: { logN: number; r: number; p: number; salt: Buffer; key: Buffer }) =>
    `$scrypt$ln=${o.logN},r=${o.r},p=${o.p}$${b64(o.salt)}$${b64(o.key)}`,
  firebaseScrypt: (o: {
    logN: number;
    rounds: number;
    saltSeparator: Buffer;
    signerKey: Buffer;
    salt: Buffer;
    hash: Buffer;
  }) =>
    `$firebase-scrypt$ln=${o.logN},r=${o.rounds}$${b64(o.saltSeparator)}$${b64(o.signerKey)}$${b64(o.salt)}$${b64(o.hash)}`,
  pbkdf2: (o: { digest: 'sha1' | 'sha256' | 'sha512'; iterations: number; salt: Buffer; key: Buffer }) =>
    `$pbkdf2-${o.digest}$i=${o.iterations}$${b64(o.salt)}$${b64(o.key)}`,
} as const;
