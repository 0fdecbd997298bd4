import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { browserOf, type SignInBrowser } from './browser';

/** The signed-in state of a request. Routes read `request.session`; only this service reads the table. */
export interface Session {
  /** SHA-256 of the cookie token: the session's id. */
  id: string;
  userId: string;
  user: User;
  createdAt: number;
  expiresAt: number;
  absoluteExpiresAt: number;
  /** The active organisation identity (a deputy id), or null for the personal identity. */
  deputyId: string | null;
  /**
   * When the person last proved it is them in this session (ms): its sign-in, then each re-verification
   * (auth/verify, account/verify). Null: never (a session older than the record). Step-up reads it.
   */
  verifiedAt: number | null;
  /**
   * When the person last proved a second factor in this session (ms): a passkey, an authenticator app
   * or a recovery code at its sign-in or a step-up, or a factor enrolled in it. Null: never. An
   * organisation that requires a second factor reads it (src/domain/organisations/second-factor.ts).
   */
  factorVerifiedAt: number | null;
  /**
   * On SQLite's fast path: the organisation tables' version read with the session row (migration
   * 0017), by which the identity lookup keeps an active identity between two changes.
   */
  orgVersion?: number | undefined;
}

export interface Sessions {
  /** The session cookie's name: `sessionid`, or `__Host-sessionid` behind https. */
  readonly cookieName: string;
  /**
   * Signs `userId` in: the request's old session (if any) dies, a new token is set. `deputyId` makes an
   * organisation identity active (subject login, member switch); default the personal identity.
   * A sign-in is a verification, so the new session is verified now; `keepVerification` (a sign-in by
   * the session itself, which proves nothing) carries the old session's verification times and absolute
   * expiry over instead, and is NOT_LOGGED_IN when the old session is gone.
   */
  signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    deputyId?: string | null,
    options?: SignInOptions,
  ): Promise<Session>;
  /**
   * signIn in two halves, for a sign-in that is part of a transaction (its events commit with it):
   * `open` writes through `db` (the request's old session dies, the new one is stored, its user read)
   * and sends nothing; `start`, after the commit, sets the cookie and makes it the request's session.
   */
  open(
    db: Kysely<Database>,
    request: FastifyRequest,
    userId: string,
    deputyId?: string | null,
    options?: SignInOptions,
  ): Promise<OpenedSession>;
  /** `open` for what the browser presented, as values (src/domain/sessions/browser.ts). */
  openFor(
    db: Kysely<Database>,
    browser: SignInBrowser,
    userId: string,
    deputyId?: string | null,
    options?: SignInOptions,
  ): Promise<OpenedSession>;
  start(request: FastifyRequest, reply: FastifyReply, opened: OpenedSession): Session;
  /** Ends the session `id` through `db` (a sign-out's transaction); `forget` clears the browser after. */
  endFor(db: Kysely<Database>, id: string): Promise<void>;
  /** The browser's half of a sign-out whose session ended in a transaction: the cookie goes. */
  forget(request: FastifyRequest, reply: FastifyReply): void;
  /**
   * Kills the request's session, server side and in the browser; through `db` when the sign-out is part
   * of a transaction.
   */
  signOut(request: FastifyRequest, reply: FastifyReply, db?: Kysely<Database>): Promise<void>;
  /** Kills every session of a user (password reset, cancellation); through `db` likewise. */
  revokeAll(userId: string, db?: Kysely<Database>): Promise<void>;
  /** Kills every session of a user but `keepId` (`kick_other`); answers how many ended. `db` likewise. */
  revokeOthers(userId: string, keepId: string, db?: Kysely<Database>): Promise<number>;
}

/**
 * How a sign-in verified: `keepVerification` (a sign-in by the session itself: a switch of identity,
 * a leave, an accepted invitation) carries the old session's verification times and absolute expiry
 * over, and needs that session to be there still; `verifiedAt` (a sign-in another session vouched for) is the
 * verification time it carries; `factor`: the sign-in proved a second factor.
 */
export interface SignInOptions {
  keepVerification?: boolean;
  verifiedAt?: number | null | undefined;
  factor?: boolean;
}

/** A session stored by `open` whose cookie is not set yet: its token is only ever in the cookie. */
export interface OpenedSession {
  session: Session;
  token: string;
}

/** The request's session, or NOT_LOGGED_IN. */
/**
 * Records through `db` (an operation's transaction) that the person of session `id` just proved it is
 * them again, at `now` (the step-up's clock); `factor`: with a second factor (a passkey, an
 * authenticator app, a recovery code).
 */
export async function markSessionVerified(
  db: Kysely<Database>,
  id: string,
  now: number,
  factor: boolean,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ verified_at: now, ...(factor && { factor_verified_at: now }) })
    .where('token_hash', '=', id)
    .execute();
}

export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw new PassportError('notLoggedIn');
  return request.session;
}

/** The session service, and the onRequest step that resolves a request's session cookie. */
export interface SessionService {
  sessions: Sessions;
  /** Puts the cookie's session on the request; returns a promise only when it must wait (lib/hooks). */
  resolve(request: FastifyRequest, reply: FastifyReply): Promise<unknown> | undefined;
}

export function createSessions(app: FastifyInstance): SessionService {
  const { config, runtime, db } = app;
  const secure = config.publicOrigin.startsWith('https:');
  const cookieName = secure ? `${config.cookieDomain ? '__Secure-' : '__Host-'}sessionid` : 'sessionid';
  const idleMs = config.sessionIdleSeconds * 1000;
  const absoluteMs = config.sessionAbsoluteSeconds * 1000;
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure,
    ...(config.cookieDomain ? { domain: config.cookieDomain } : {}),
  };

  const destroy = (id: string, through = db) =>
    through.deleteFrom('sessions').where('token_hash', '=', id).execute();

  // The lookup every signed-in request makes: the session by its token hash and its user, both by
  // primary key, built and compiled once. Nothing about the session is cached across requests: every
  // check reads the database, so a logout or a revocation on any instance takes effect on the next
  // request.
  //
  // On PostgreSQL it is one joined query. On SQLite it is two better-sqlite3 statements prepared once
  // (the session row, then its user), run straight on the connection whenever no transaction is open
  // on it (another request's open transaction would show its uncommitted rows); the two synchronous
  // calls cannot interleave with anything else on that connection. Measured on SQLite 3.54: the join
  // takes about 18 µs a call where the two primary-key reads take about 3 µs each.
  const lookup = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'sessions.absolute_expires_at',
      'sessions.deputy_id',
      'sessions.verified_at',
      'sessions.factor_verified_at',
    ])
    .where('sessions.token_hash', '=', '')
    .compile();
  if (lookup.parameters.length !== 1) throw new Error('the session lookup must take exactly the token hash');
  type LookupRow = typeof lookup extends CompiledQuery<infer Row> ? Row : never;
  const sqlite = app.database.sqlite;
  const sessionRow = sqlite?.prepare<
    [string],
    Omit<LookupRow, keyof User> & { user_id: string; org_version: number }
  >(
    db
      .selectFrom('sessions')
      .select([
        'user_id',
        'created_at as session_created_at',
        'last_seen_at',
        'expires_at',
        'absolute_expires_at',
        'deputy_id',
        'verified_at',
        'factor_verified_at',
        // About 0.1 µs here, where a statement of its own costs about 2 µs (identity-lookup).
        sql<number>`(select v from org_version where id = 1)`.as('org_version'),
      ])
      .where('token_hash', '=', '')
      .compile().sql,
  );
  const userRow = sqlite?.prepare<[string], User>(
    db.selectFrom('users').selectAll().where('id', '=', '').compile().sql,
  );
  /** A stored session and its user, as the lookup found them. */
  interface Found {
    user: User;
    createdAt: number;
    lastSeenAt: number;
    expiresAt: number;
    absoluteExpiresAt: number;
    deputyId: string | null;
    verifiedAt: number | null;
    factorVerifiedAt: number | null;
    orgVersion: number | undefined;
  }
  const found = (user: User, session: Omit<LookupRow, keyof User> & { org_version?: number }): Found => ({
    user,
    createdAt: Number(session.session_created_at),
    lastSeenAt: Number(session.last_seen_at),
    expiresAt: Number(session.expires_at),
    absoluteExpiresAt: Number(session.absolute_expires_at),
    deputyId: session.deputy_id ?? null,
    verifiedAt: session.verified_at === null ? null : Number(session.verified_at),
    factorVerifiedAt: session.factor_verified_at === null ? null : Number(session.factor_verified_at),
    orgVersion: session.org_version,
  });
  /** Synchronous on SQLite's fast path, a promise otherwise. */
  const findSession = (id: string): Found | undefined | Promise<Found | undefined> => {
    if (sqlite && sessionRow && userRow && !sqlite.inTransaction) {
      const session = sessionRow.get(id);
      const user = session && userRow.get(session.user_id);
      return session && user ? found(user, session) : undefined;
    }
    return db.executeQuery<LookupRow>({ ...lookup, parameters: [id] }).then(({ rows: [row] }) => {
      if (!row) return undefined;
      const {
        session_created_at,
        last_seen_at,
        expires_at,
        absolute_expires_at,
        deputy_id,
        verified_at,
        factor_verified_at,
        ...user
      } = row;
      return found(user, {
        session_created_at,
        last_seen_at,
        expires_at,
        absolute_expires_at,
        deputy_id,
        verified_at,
        factor_verified_at,
      });
    });
  };

  /** Puts the session on the request, or clears a dead cookie; waits only when it writes. */
  function attach(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    row: Found | undefined,
  ): Promise<unknown> | undefined {
    const now = runtime.now();
    if (!row || row.expiresAt <= now || row.absoluteExpiresAt <= now) {
      reply.clearCookie(cookieName, cookieOptions);
      return row ? destroy(id) : undefined;
    }
    const touch = now - row.lastSeenAt >= runtime.limits.sessionTouchMs;
    const expiresAt = touch ? Math.min(now + idleMs, row.absoluteExpiresAt) : row.expiresAt;
    const session: Session = {
      id,
      userId: row.user.id,
      user: row.user,
      createdAt: row.createdAt,
      expiresAt,
      absoluteExpiresAt: row.absoluteExpiresAt,
      deputyId: row.deputyId,
      verifiedAt: row.verifiedAt,
      factorVerifiedAt: row.factorVerifiedAt,
      // A touch waits for its write: whatever runs after it reads the organisation version afresh.
      orgVersion: touch ? undefined : row.orgVersion,
    };
    if (!touch) {
      request.session = session;
      return undefined;
    }
    return db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: expiresAt })
      .where('token_hash', '=', id)
      .execute()
      .then(() => {
        request.session = session;
      });
  }

  /** Resolves the request's session cookie; a promise only when the database must be waited for. */
  function resolve(request: FastifyRequest, reply: FastifyReply): Promise<unknown> | undefined {
    const token = request.cookies[cookieName];
    if (!token) return undefined;
    if (token.length > 128) {
      reply.clearCookie(cookieName, cookieOptions);
      return undefined;
    }
    // Hashed on every request: a memo of token → hash would keep live bearer tokens on the heap (heap
    // snapshots, core dumps) for about 5 % of a session check's CPU.
    const id = sha256(token);
    const row = findSession(id);
    return row instanceof Promise
      ? row.then((settled) => attach(request, reply, id, settled))
      : attach(request, reply, id, row);
  }

  function open(
    through: Kysely<Database>,
    request: FastifyRequest,
    userId: string,
    deputyId: string | null = null,
    options: SignInOptions = {},
  ): Promise<OpenedSession> {
    return openFor(through, browserOf(app, request), userId, deputyId, options);
  }

  async function openFor(
    through: Kysely<Database>,
    browser: SignInBrowser,
    userId: string,
    deputyId: string | null = null,
    options: SignInOptions = {},
  ): Promise<OpenedSession> {
    const previous = browser.session;
    const ended = previous ? await destroy(previous.id, through) : [];
    // A sign-in by the session itself is proved by that session only: if a revocation (a password reset,
    // "sign out everywhere") ended it after the request's copy was read, nobody is signed in.
    const kept = options.keepVerification ? previous : null;
    if (options.keepVerification && (kept?.userId !== userId || Number(ended[0]?.numDeletedRows) !== 1))
      throw new PassportError('notLoggedIn');
    const token = randomToken(32);
    const id = sha256(token);
    const now = runtime.now();
    // The absolute lifetime is the sign-in's: one by the session itself continues it, or switching
    // back and forth would keep a session (a stolen cookie) alive for ever.
    const absolute = kept ? kept.absoluteExpiresAt : now + absoluteMs;
    // A sign-in is a verification; one by the session itself carries the old session's time over.
    const verifiedAt = options.verifiedAt !== undefined ? options.verifiedAt : kept ? kept.verifiedAt : now;
    const factorVerifiedAt = options.factor ? now : (kept?.factorVerifiedAt ?? null);
    await through
      .insertInto('sessions')
      .values({
        token_hash: id,
        user_id: userId,
        created_at: now,
        last_seen_at: now,
        expires_at: Math.min(now + idleMs, absolute),
        absolute_expires_at: absolute,
        user_agent: browser.userAgent,
        ip: browser.ip,
        fp: browser.fingerprint,
        did: browser.did,
        deputy_id: deputyId,
        verified_at: verifiedAt,
        factor_verified_at: factorVerifiedAt,
      })
      .execute();
    const user = await through
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const session: Session = {
      id,
      userId,
      user,
      createdAt: now,
      expiresAt: Math.min(now + idleMs, absolute),
      absoluteExpiresAt: absolute,
      deputyId,
      verifiedAt,
      factorVerifiedAt,
    };
    return { session, token };
  }

  function start(request: FastifyRequest, reply: FastifyReply, opened: OpenedSession): Session {
    reply.setCookie(cookieName, opened.token, { ...cookieOptions, maxAge: config.sessionAbsoluteSeconds });
    request.session = opened.session;
    return opened.session;
  }

  const sessions: Sessions = {
    cookieName,
    open,
    openFor,
    start,
    async signIn(request, reply, userId, deputyId = null, options = {}) {
      return start(request, reply, await open(db, request, userId, deputyId, options));
    },
    async signOut(request, reply, through = db) {
      if (request.session) await destroy(request.session.id, through);
      sessions.forget(request, reply);
    },
    async endFor(through, id) {
      await destroy(id, through);
    },
    forget(request, reply) {
      request.session = null;
      // A new pre-session id (and so a new CSRF token) for whoever uses this browser next.
      request.preSessionId = null;
      reply.clearCookie(cookieName, cookieOptions);
    },
    async revokeAll(userId, through = db) {
      await through.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },
    async revokeOthers(userId, keepId, through = db) {
      const result = await through
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('token_hash', '!=', keepId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };

  return { sessions, resolve };
}
