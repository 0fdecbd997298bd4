import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database, User } from '../db/schema';
import { newUserRow } from '../domain/accounts/accounts';
import { emailOf, mobileOf } from '../domain/accounts/targets';
import { usernameOf } from '../domain/identifiers/usernames';
import { importedHashProblem } from '../domain/passwords/imported';
import { normaliseName } from '../domain/profile/names';
import { PassportError } from '../errors';
import { recordEvents } from '../events/outbox';
import type { ReadResult, Source, SourceUser } from './sources';

/**
 * Importing the users of another provider's export (docs/importing-users.md): every record is
 * normalised the way the server normalises identifiers, checked against the rest of the file and the
 * accounts already here, and written in batches, each one transaction (the accounts, their
 * `imported_users` rows and their `account.imported` events). Nothing is merged: a record whose id or
 * identifier another record or account holds is reported with its line and left out. A run again skips
 * the provider's ids it imported before, so an interrupted import is resumed by running it again.
 */

export type IdentifierKind = 'email' | 'mobile' | 'username';

/** A record left out: its line in the file, its id at the provider when read, and why. */
export interface Problem {
  line: number;
  id?: string;
  /** A stable snake_case reason (docs/importing-users.md lists them). */
  reason: string;
  /** What it collided with (`email, line 3`), or the hasher a reason names. */
  detail?: string;
}

/** An identifier left off an imported account: the provider says it was never verified. */
export interface Note {
  line: number;
  id: string;
  reason: 'unverified_email_dropped' | 'unverified_mobile_dropped';
}

export interface Progress {
  dryRun: boolean;
  /** Records judged so far, of `total`. */
  done: number;
  total: number;
  imported: number;
  elapsedMs: number;
}

export interface ImportReport {
  source: Source;
  dryRun: boolean;
  total: number;
  /** Accounts made (in a dry run: that would be made). */
  imported: number;
  /** Of those, with the provider's password hash. */
  withPassword: number;
  /** Records whose provider id an earlier run imported. */
  alreadyImported: number;
  problems: Problem[];
  notes: Note[];
  elapsedMs: number;
}

export interface ImportOptions {
  source: Source;
  /** The file's records as src/import/sources.ts read them, in file order. */
  records: readonly ReadResult[];
  dryRun?: boolean;
  /** Accounts per transaction. */
  batchSize?: number;
  config: Pick<Config, 'defaultRegion' | 'fictionalNumbers' | 'allowedRegions'>;
  now?: () => number;
  onProgress?: (progress: Progress) => void;
}

/** 500 accounts per transaction: ~9,000 bound values, within SQLite's and PostgreSQL's limits. */
export const IMPORT_BATCH_SIZE = 500;

interface Candidate {
  user: SourceUser;
  row: User;
  identifiers: IdentifierKind[];
}

const KINDS: readonly IdentifierKind[] = ['email', 'mobile', 'username'];

const reasonOf = (error: unknown): string => {
  if (!(error instanceof PassportError)) throw error;
  return error.errorName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
};

const isUniqueViolation = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
};

export async function importUsers(db: Kysely<Database>, options: ImportOptions): Promise<ImportReport> {
  const { source, records, config } = options;
  const now = options.now ?? Date.now;
  const dryRun = options.dryRun ?? false;
  const batchSize = options.batchSize ?? IMPORT_BATCH_SIZE;
  const started = Date.now();
  const report: ImportReport = {
    source,
    dryRun,
    total: records.length,
    imported: 0,
    withPassword: 0,
    alreadyImported: 0,
    problems: [],
    notes: [],
    elapsedMs: 0,
  };
  const problem = (line: number, id: string | undefined, reason: string, detail?: string) =>
    report.problems.push({
      line,
      ...(id === undefined ? {} : { id }),
      reason,
      ...(detail ? { detail } : {}),
    });

  // The first line each provider id and identifier was seen on: a later record with the same one is a
  // duplicate, reported and left out (never merged into the first).
  const seenIds = new Map<string, number>();
  const seen: Record<IdentifierKind, Map<string, number>> = {
    email: new Map(),
    mobile: new Map(),
    username: new Map(),
  };

  /** The record as an account row, or null when it was reported. */
  const candidateOf = (read: ReadResult): Candidate | null => {
    if (!read.ok) {
      problem(read.line, read.id, read.reason, read.detail);
      return null;
    }
    const { user } = read;
    const firstLine = seenIds.get(user.id);
    if (firstLine !== undefined) {
      problem(user.line, user.id, 'duplicate_id_in_file', `line ${firstLine}`);
      return null;
    }
    seenIds.set(user.id, user.line);
    const values: Record<IdentifierKind, string | null> = { email: null, mobile: null, username: null };
    try {
      if (user.email !== null) {
        if (user.emailVerified === false)
          report.notes.push({ line: user.line, id: user.id, reason: 'unverified_email_dropped' });
        else values.email = emailOf(user.email);
      }
      if (user.mobile !== null) {
        if (user.mobileVerified === false)
          report.notes.push({ line: user.line, id: user.id, reason: 'unverified_mobile_dropped' });
        else values.mobile = mobileOf({ config }, user.mobile);
      }
      if (user.username !== null) values.username = usernameOf(user.username);
    } catch (error) {
      problem(user.line, user.id, reasonOf(error));
      return null;
    }
    const identifiers = KINDS.filter((kind) => values[kind] !== null);
    if (identifiers.length === 0) {
      problem(user.line, user.id, 'no_identifier');
      return null;
    }
    if (values.email === null && values.mobile === null && user.passwordHash === null) {
      // A username alone, without a password, is no way in.
      problem(user.line, user.id, 'no_way_in');
      return null;
    }
    if (user.passwordHash !== null) {
      const hashProblem = importedHashProblem(user.passwordHash);
      if (hashProblem) {
        problem(user.line, user.id, hashProblem);
        return null;
      }
    }
    for (const kind of identifiers) {
      const earlier = seen[kind].get(values[kind] as string);
      if (earlier !== undefined) {
        problem(user.line, user.id, 'duplicate_in_file', `${kind}, line ${earlier}`);
        return null;
      }
    }
    for (const kind of identifiers) seen[kind].set(values[kind] as string, user.line);
    let name: string | undefined;
    try {
      name = user.name === null ? undefined : normaliseName(user.name);
    } catch {
      // A name this server refuses (too long, not allowed) gives way to a generated one.
    }
    const at = now();
    const row: User = {
      ...newUserRow(at, {
        email: values.email,
        mobile: values.mobile,
        password_hash: user.passwordHash,
        ...(name ? { screen_name: name } : {}),
      }),
      username: values.username,
      ...(name ? { name_set_at: at } : {}),
    };
    return { user, row, identifiers };
  };

  /** The candidates whose provider id is already imported, and those whose identifiers an account holds. */
  const screenAgainstDatabase = async (batch: Candidate[]): Promise<Candidate[]> => {
    const imported = new Set(
      (
        await db
          .selectFrom('imported_users')
          .select('source_id')
          .where('source', '=', source)
          .where(
            'source_id',
            'in',
            batch.map((c) => c.user.id),
          )
          .execute()
      ).map((r) => r.source_id),
    );
    const fresh = batch.filter((c) => !imported.has(c.user.id));
    report.alreadyImported += batch.length - fresh.length;
    if (fresh.length === 0) return [];
    const held = await db
      .selectFrom('users')
      .select(['email', 'mobile', 'username'])
      .where((eb) =>
        eb.or(
          KINDS.flatMap((kind) => {
            const values = fresh.flatMap((c) => (c.row[kind] === null ? [] : [c.row[kind] as string]));
            return values.length ? [eb(kind, 'in', values)] : [];
          }),
        ),
      )
      .execute();
    const taken: Record<IdentifierKind, Set<string>> = {
      email: new Set(held.flatMap((r) => (r.email ? [r.email] : []))),
      mobile: new Set(held.flatMap((r) => (r.mobile ? [r.mobile] : []))),
      username: new Set(held.flatMap((r) => (r.username ? [r.username] : []))),
    };
    return fresh.filter((c) => {
      const kind = c.identifiers.find((k) => taken[k].has(c.row[k] as string));
      if (kind) problem(c.user.line, c.user.id, 'identifier_taken', kind);
      return !kind;
    });
  };

  const write = (trx: Kysely<Database>, batch: Candidate[]) =>
    (async () => {
      const at = now();
      await trx
        .insertInto('users')
        .values(batch.map((c) => c.row))
        .execute();
      await trx
        .insertInto('imported_users')
        .values(batch.map((c) => ({ source, source_id: c.user.id, user_id: c.row.id, imported_at: at })))
        .execute();
      await recordEvents(
        trx,
        batch.map((c) => ({
          type: 'account.imported' as const,
          stream: `user:${c.row.id}`,
          actor: { kind: 'system' as const },
          targetUserId: c.row.id,
          data: { source, identifiers: [...c.identifiers], password: c.row.password_hash !== null },
        })),
        { at },
      );
    })();

  const counted = (batch: Candidate[]) => {
    report.imported += batch.length;
    report.withPassword += batch.filter((c) => c.row.password_hash !== null).length;
  };

  const commit = async (batch: Candidate[]) => {
    if (batch.length === 0) return;
    if (dryRun) return counted(batch);
    try {
      await db.transaction().execute((trx) => write(trx, batch));
      counted(batch);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Someone signed up with one of these identifiers (or another import ran) since the check: each
      // account alone, so the one that collided is reported and the others are still imported.
      for (const candidate of batch) {
        try {
          await db.transaction().execute((trx) => write(trx, [candidate]));
          counted([candidate]);
        } catch (single) {
          if (!isUniqueViolation(single)) throw single;
          problem(candidate.user.line, candidate.user.id, 'identifier_taken');
        }
      }
    }
  };

  let done = 0;
  for (let start = 0; start < records.length; start += batchSize) {
    const slice = records.slice(start, start + batchSize);
    const candidates = slice.flatMap((read) => candidateOf(read) ?? []);
    if (candidates.length) await commit(await screenAgainstDatabase(candidates));
    done += slice.length;
    options.onProgress?.({
      dryRun,
      done,
      total: records.length,
      imported: report.imported,
      elapsedMs: Date.now() - started,
    });
  }
  report.problems.sort((a, b) => a.line - b.line);
  report.elapsedMs = Date.now() - started;
  return report;
}
