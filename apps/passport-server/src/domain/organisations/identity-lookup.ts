import type { FastifyInstance } from 'fastify';
import type { CompiledQuery } from 'kysely';
import { storedPermissions } from './organisations';

/**
 * The active identity of a session, as account/info, /GetUserInfo and /GetUserToken show it: the
 * identity, its subject and its roles' permissions. On PostgreSQL it is ONE query (a row per role),
 * built and compiled once. On SQLite it is better-sqlite3 statements prepared once and run
 * synchronously whenever no transaction is open on the connection (as the session lookup does,
 * domain/sessions): the identity and its subject by primary key (about 2 µs each; the same join takes
 * about 15 µs on SQLite 3.5x), then, for a member that is not the manager, its roles (about 8 µs). So
 * an identity session's account/info stays a synchronous answer like a personal one's.
 */
export interface ActiveIdentity {
  sec_subject_uid: string;
  subject_name: string;
  user_identity_id: string;
  deputy_name: string;
  is_manager: boolean;
  /** 1 when the identity or its subject is frozen (no permissions then). */
  is_frozen: number;
  subject_is_frozen: number;
  permissions: string[];
}

interface Row {
  id: string;
  subject_id: string;
  deputy_name: string;
  is_manager: number;
  is_frozen: number;
  subject_name: string;
  subject_is_frozen: number;
  permissions: string | null;
  is_banned: number | null;
}

/** Active identities kept on SQLite between two changes of the database (cleared when full). */
const IDENTITY_CACHE_SIZE = 10_000;

/** `(userId, deputyId)` → the identity (undefined when it is not the user's); a promise only when it waits. */
export function createIdentityLookup(app: FastifyInstance) {
  const { db } = app;
  const query = db
    .selectFrom('deputies')
    .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
    .leftJoin('deputy_roles', 'deputy_roles.deputy_id', 'deputies.id')
    .leftJoin('roles', 'roles.id', 'deputy_roles.role_id')
    .select([
      'deputies.id',
      'deputies.subject_id',
      'deputies.deputy_name',
      'deputies.is_manager',
      'deputies.is_frozen',
      'subjects.name as subject_name',
      'subjects.is_frozen as subject_is_frozen',
      'roles.permissions',
      'roles.is_banned',
    ])
    .where('deputies.id', '=', '')
    .where('deputies.user_id', '=', '')
    .compile() as CompiledQuery<Row>;
  if (query.parameters.length !== 2)
    throw new Error('the identity lookup must take the identity and user ids');
  const sqlite = app.database.sqlite;
  type DeputyPart = Pick<Row, 'id' | 'subject_id' | 'deputy_name' | 'is_manager' | 'is_frozen'> & {
    user_id: string;
  };
  const deputyRow = sqlite?.prepare<[string], DeputyPart>(
    db
      .selectFrom('deputies')
      .select(['id', 'subject_id', 'user_id', 'deputy_name', 'is_manager', 'is_frozen'])
      .where('id', '=', '')
      .compile().sql,
  );
  const subjectRow = sqlite?.prepare<[string], { name: string; is_frozen: number }>(
    db.selectFrom('subjects').select(['name', 'is_frozen']).where('id', '=', '').compile().sql,
  );
  const roleRows = sqlite?.prepare<[string], { permissions: string; is_banned: number }>(
    db
      .selectFrom('deputy_roles')
      .innerJoin('roles', 'roles.id', 'deputy_roles.role_id')
      .select(['roles.permissions', 'roles.is_banned'])
      .where('deputy_roles.deputy_id', '=', '')
      .compile().sql,
  );
  /** The SQLite path: synchronous, rows shaped as the joined query's. */
  const readSqlite = (userId: string, deputyId: string): Row[] => {
    const deputy = deputyRow!.get(deputyId);
    if (!deputy || deputy.user_id !== userId) return [];
    const subject = subjectRow!.get(deputy.subject_id);
    if (!subject) return [];
    const base = { ...deputy, subject_name: subject.name, subject_is_frozen: subject.is_frozen };
    const roles = Number(deputy.is_manager) === 1 ? [] : roleRows!.all(deputyId);
    return roles.length === 0
      ? [{ ...base, permissions: null, is_banned: null }]
      : roles.map((r) => ({ ...base, permissions: r.permissions, is_banned: r.is_banned }));
  };
  const { all, known } = app.organisations.access;

  const shape = (rows: Row[]): ActiveIdentity | undefined => {
    const [first] = rows;
    if (!first) return undefined;
    const frozen = Number(first.is_frozen) === 1 || Number(first.subject_is_frozen) === 1;
    const manager = Number(first.is_manager) === 1;
    const held = new Set<string>();
    if (!frozen)
      for (const row of rows)
        if (row.permissions !== null && Number(row.is_banned) === 0)
          for (const p of storedPermissions(row.permissions)) if (known.has(p)) held.add(p);
    return {
      sec_subject_uid: first.subject_id,
      subject_name: first.subject_name,
      user_identity_id: first.id,
      deputy_name: first.deputy_name,
      is_manager: manager,
      is_frozen: frozen ? 1 : 0,
      subject_is_frozen: Number(first.subject_is_frozen),
      permissions: frozen ? [] : manager ? [...all] : all.filter((p) => held.has(p)),
    };
  };

  // On SQLite, answers are kept until the organisation tables change: triggers bump one version row
  // on every write to them, on any connection (migration 0017). The session lookup reads that version
  // with the session row at no measurable cost; a session found otherwise reads it here (about 2 µs,
  // as did the pragma data_version stamp this replaces, which cost about 40 % of the session lookup
  // under load). A role change is still seen by the very next request.
  const versionRow = sqlite?.prepare<[], number>('select v from org_version where id = 1').pluck();
  const cache = new Map<string, { version: number; identity: ActiveIdentity | undefined }>();
  const readCached = (userId: string, deputyId: string, known?: number): ActiveIdentity | undefined => {
    const version = known ?? (versionRow!.get() as number);
    const key = `${deputyId} ${userId}`;
    const kept = cache.get(key);
    if (kept && kept.version === version) return kept.identity;
    if (cache.size >= IDENTITY_CACHE_SIZE) cache.clear();
    const identity = shape(readSqlite(userId, deputyId));
    cache.set(key, { version, identity });
    return identity;
  };

  /** `orgVersion`: the version the request's session lookup read with its row, when it did. */
  return (
    userId: string,
    deputyId: string,
    orgVersion?: number,
  ): ActiveIdentity | undefined | Promise<ActiveIdentity | undefined> => {
    if (sqlite && !sqlite.inTransaction) return readCached(userId, deputyId, orgVersion);
    return db.executeQuery<Row>({ ...query, parameters: [deputyId, userId] }).then(({ rows }) => shape(rows));
  };
}
