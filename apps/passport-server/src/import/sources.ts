import { parse as parseCsv } from 'csv-parse/sync';
import { fromBase64, importedHash } from '../domain/passwords/imported';

/**
 * Reading another provider's export (docs/importing-users.md): each record becomes a `SourceUser` with
 * its line in the file and its password hash in the stored form of src/domain/passwords/imported.ts.
 * Identifiers come as the provider wrote them; the import normalises them the server's way.
 */

export const SOURCES = ['auth0', 'supabase', 'firebase', 'better-auth', 'clerk'] as const;
export type Source = (typeof SOURCES)[number];

/** Firebase's project-wide hash parameters (the console's "password hash parameters"). */
export interface FirebaseHashParameters {
  /** base64_signer_key */
  signerKey: string;
  /** base64_salt_separator */
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

export interface SourceUser {
  /** The record's line in the file, from 1. */
  line: number;
  /** The user's id at the provider. */
  id: string;
  email: string | null;
  /** False when the provider says the address was never verified; null when it does not say. */
  emailVerified: boolean | null;
  mobile: string | null;
  mobileVerified: boolean | null;
  username: string | null;
  name: string | null;
  /** In the stored form; null for a user without a password. */
  passwordHash: string | null;
}

/** A record that cannot be read: its line and why (a stable snake_case reason). */
export class RowProblem extends Error {
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(reason);
  }
}

type Fields = Record<string, unknown>;

/** A record as the file has it, and its line. */
interface RawRecord {
  line: number;
  fields: Fields | null;
}

const text = (value: unknown): string | null => {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

const flag = (value: unknown): boolean | null => {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 't' || value === '1') return true;
  if (value === 'false' || value === 'f' || value === '0') return false;
  return null;
};

/** A timestamp column (Supabase's `email_confirmed_at`): set means verified. */
const stamped = (fields: Fields, column: string): boolean | null =>
  column in fields ? text(fields[column]) !== null : null;

/**
 * The line each element of the file's record array starts on: the first array in the document (a
 * top-level array, or `{"users": [...]}`), found by a scan that keeps track of strings.
 */
function elementLines(json: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let arrayDepth = -1;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '\n') line += 1;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (c === '{' && depth === arrayDepth) lines.push(line);
      depth += 1;
      if (c === '[' && arrayDepth < 0) arrayDepth = depth;
    } else if (c === ']' || c === '}') depth -= 1;
  }
  return lines;
}

/** The records of a JSON document (an array, or an object with a `users` array), JSON lines, or CSV. */
export function readRecords(content: string, format: 'json' | 'jsonl' | 'csv'): RawRecord[] {
  const body = content.replace(/^\uFEFF/, '');
  if (format === 'csv') {
    // Arrays, not objects: a record with more or fewer cells than the header is reported, not read
    // with its cells shifted into the wrong columns.
    const rows = parseCsv(body, {
      skip_empty_lines: true,
      info: true,
      relax_column_count: true,
    }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
    const [header, ...records] = rows;
    if (!header) return [];
    const columns = header.record.map((column) => column.trim());
    return records.map(({ record, info }) => ({
      line: info.lines,
      fields:
        record.length === columns.length
          ? Object.fromEntries(columns.map((column, i) => [column, record[i]]))
          : null,
    }));
  }
  if (format === 'jsonl') {
    return body.split('\n').flatMap((raw, index) => {
      if (raw.trim() === '') return [];
      try {
        const parsed: unknown = JSON.parse(raw);
        return [{ line: index + 1, fields: isObject(parsed) ? parsed : null }];
      } catch {
        return [{ line: index + 1, fields: null }];
      }
    });
  }
  const document: unknown = JSON.parse(body);
  const list = Array.isArray(document) ? document : isObject(document) ? document.users : undefined;
  if (!Array.isArray(list))
    throw new Error('the JSON file has no array of users (an array, or {"users": [...]})');
  const lines = elementLines(body);
  return list.map((fields: unknown, index) => ({
    line: lines[index] ?? index + 1,
    fields: isObject(fields) ? fields : null,
  }));
}

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The format a file is read in: CSV by its name, else JSON lines when its first line is a whole object. */
export function formatOf(fileName: string, content: string): 'json' | 'jsonl' | 'csv' {
  if (/\.csv$/i.test(fileName)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(fileName)) return 'jsonl';
  const start = content.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('[')) return 'json';
  const first = start.split('\n', 1)[0] ?? '';
  try {
    JSON.parse(first);
    return start.includes('\n') && start.slice(first.length).trim() !== '' ? 'jsonl' : 'json';
  } catch {
    return start.startsWith('{') ? 'json' : 'csv';
  }
}

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

function bcrypt(value: string | null): string | null {
  if (value === null) return null;
  if (!BCRYPT.test(value)) throw new RowProblem('unknown_hash_format');
  return value;
}

/** A Django PBKDF2 digest (`pbkdf2_sha256$<iterations>$<salt>$<base64 key>`, Clerk's `pbkdf2_sha256`). */
function djangoPbkdf2(value: string): string {
  const [algorithm, iterations, salt, key] = value.split('$');
  const digest = { pbkdf2_sha256: 'sha256', pbkdf2_sha1: 'sha1' }[algorithm ?? ''] as
    | 'sha256'
    | 'sha1'
    | undefined;
  if (!digest || !iterations || !/^\d+$/.test(iterations) || !salt || !key)
    throw new RowProblem('unknown_hash_format');
  return importedHash.pbkdf2({
    digest,
    iterations: Number(iterations),
    salt: Buffer.from(salt, 'utf8'),
    key: fromBase64(key),
  });
}

function firebaseHash(hash: string, salt: string, p: FirebaseHashParameters | undefined): string {
  if (!p) throw new RowProblem('firebase_parameters_missing');
  return importedHash.firebaseScrypt({
    logN: p.memCost,
    rounds: p.rounds,
    saltSeparator: fromBase64(p.saltSeparator),
    signerKey: fromBase64(p.signerKey),
    salt: fromBase64(salt),
    hash: fromBase64(hash),
  });
}

/** Better Auth's scrypt (`<hex salt>:<hex key>`; the hex salt's text is the salt; N 16384, r 16, p 1). */
function betterAuthHash(value: string): string {
  const match = /^([0-9a-f]+):([0-9a-f]+)$/i.exec(value);
  if (!match) throw new RowProblem('unknown_hash_format');
  return importedHash.scrypt({
    logN: 14,
    r: 16,
    p: 1,
    salt: Buffer.from(match[1] as string, 'utf8'),
    key: Buffer.from(match[2] as string, 'hex'),
  });
}

/** Clerk's `password_digest` by its `password_hasher`. */
function clerkHash(digest: string | null, hasher: string | null): string | null {
  if (digest === null) return null;
  switch (hasher ?? 'bcrypt') {
    case 'bcrypt':
      return bcrypt(digest);
    case 'argon2i':
    case 'argon2id':
      if (!digest.startsWith(`$${hasher}$`)) throw new RowProblem('unknown_hash_format');
      return digest;
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha1':
      return djangoPbkdf2(digest);
    case 'scrypt_firebase': {
      // <hash>$<salt>$<signer key>$<salt separator>$<rounds>$<memory cost>
      const [hash, salt, signerKey, saltSeparator, rounds, memCost] = digest.split('$');
      if (
        !hash ||
        !salt ||
        !signerKey ||
        !saltSeparator ||
        !/^\d+$/.test(rounds ?? '') ||
        !/^\d+$/.test(memCost ?? '')
      )
        throw new RowProblem('unknown_hash_format');
      return firebaseHash(hash, salt, {
        signerKey,
        saltSeparator,
        rounds: Number(rounds),
        memCost: Number(memCost),
      });
    }
    default:
      throw new RowProblem('unsupported_hasher', hasher ?? undefined);
  }
}

/** The first of a list column (Clerk writes several addresses in one cell). */
const listed = (value: unknown): string[] =>
  (text(value) ?? '').split(/[|,;\s]+/).filter((item) => item !== '');

/** The user's id at the provider, where each provider's export keeps it. */
function idOf(source: Source, f: Fields): string | null {
  switch (source) {
    case 'auth0':
      return text(f.user_id) ?? (isObject(f._id) ? text(f._id.$oid) : text(f._id)) ?? text(f.id);
    case 'firebase':
      return text(f.localId);
    default:
      return text(f.id);
  }
}

/** One provider's record as a SourceUser. */
function userOf(source: Source, f: Fields, line: number, firebase?: FirebaseHashParameters): SourceUser {
  const id = idOf(source, f);
  if (id === null) throw new RowProblem('missing_id');
  switch (source) {
    case 'auth0': {
      return {
        line,
        id,
        email: text(f.email),
        emailVerified: flag(f.email_verified),
        mobile: text(f.phone_number),
        mobileVerified: flag(f.phone_verified),
        username: text(f.username),
        name: text(f.name) ?? text(f.nickname),
        passwordHash: bcrypt(text(f.passwordHash) ?? text(f.password_hash)),
      };
    }
    case 'supabase': {
      const phone = text(f.phone);
      let meta: Fields = {};
      try {
        const raw =
          typeof f.raw_user_meta_data === 'string' ? JSON.parse(f.raw_user_meta_data) : f.raw_user_meta_data;
        if (isObject(raw)) meta = raw;
      } catch {
        // A metadata cell that is not JSON carries no name.
      }
      return {
        line,
        id,
        email: text(f.email),
        emailVerified: stamped(f, 'email_confirmed_at'),
        // Supabase keeps numbers in E.164 without the plus.
        mobile: phone === null ? null : phone.startsWith('+') ? phone : `+${phone}`,
        mobileVerified: stamped(f, 'phone_confirmed_at'),
        username: null,
        name: text(meta.full_name) ?? text(meta.name),
        passwordHash: bcrypt(text(f.encrypted_password)),
      };
    }
    case 'firebase': {
      const hash = text(f.passwordHash);
      const salt = text(f.salt);
      return {
        line,
        id,
        email: text(f.email),
        emailVerified: flag(f.emailVerified),
        mobile: text(f.phoneNumber),
        // Firebase keeps a number only once it was proven by a code.
        mobileVerified: true,
        username: null,
        name: text(f.displayName),
        passwordHash: hash === null ? null : firebaseHash(hash, salt ?? '', firebase),
      };
    }
    case 'better-auth': {
      const accounts = Array.isArray(f.accounts) ? f.accounts.filter(isObject) : [];
      const credential = accounts.find((a) => a.providerId === 'credential');
      const password = text(f.password) ?? text(credential?.password);
      return {
        line,
        id,
        email: text(f.email),
        emailVerified: flag(f.emailVerified),
        mobile: text(f.phoneNumber),
        mobileVerified: flag(f.phoneNumberVerified),
        username: text(f.username),
        name: text(f.name),
        passwordHash: password === null ? null : betterAuthHash(password),
      };
    }
    case 'clerk': {
      const email = text(f.primary_email_address);
      const phone = text(f.primary_phone_number);
      const verifiedIn = (column: string, value: string | null) =>
        value === null || !(column in f) ? null : listed(f[column]).includes(value);
      const name = [text(f.first_name), text(f.last_name)].filter(Boolean).join(' ');
      return {
        line,
        id,
        email,
        emailVerified: verifiedIn('verified_email_addresses', email),
        mobile: phone,
        mobileVerified: verifiedIn('verified_phone_numbers', phone),
        username: text(f.username),
        name: name === '' ? null : name,
        passwordHash: clerkHash(text(f.password_digest), text(f.password_hasher)),
      };
    }
  }
}

export type ReadResult =
  | { ok: true; user: SourceUser }
  | { ok: false; line: number; id?: string; reason: string; detail?: string };

/** Every record of the file, read by the provider's shape: a user, or why its line cannot be one. */
export function readUsers(
  source: Source,
  records: RawRecord[],
  firebase?: FirebaseHashParameters,
): ReadResult[] {
  return records.map(({ line, fields }) => {
    if (fields === null) return { ok: false, line, reason: 'unreadable_record' };
    try {
      return { ok: true, user: userOf(source, fields, line, firebase) };
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      const id = idOf(source, fields);
      return {
        ok: false,
        line,
        ...(id === null ? {} : { id }),
        reason: error.reason,
        ...(error.detail ? { detail: error.detail } : {}),
      };
    }
  });
}
