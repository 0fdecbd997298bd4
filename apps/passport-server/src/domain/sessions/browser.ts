import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { knownLanguage } from '../../lib/language';
import type { StoredDevice } from '../devices/devices';
import { markSessionVerified, type OpenedSession } from './sessions';

/**
 * What a browser presented that a sign-in or a sign-out reads, taken from the request by the adapter
 * (src/adapters/request.ts) and handed to the operation as values: the operation itself never reads
 * cookies or headers.
 */
export interface SignInBrowser {
  ip: string;
  /** The user agent, at most 512 characters. */
  userAgent: string | null;
  /** The `verifyFp` query, at most 128 characters. */
  fingerprint: string | null;
  /** The `did` query, at most 64 characters. */
  did: string | null;
  /** SHA-256 of the device token the browser presented (src/domain/devices), when a well-formed one. */
  deviceToken: string | null;
  /** The session the browser presented (its identity, a deputy id or null), which a sign-in or a sign-out ends. */
  session: {
    id: string;
    userId: string;
    /** When the session ends whatever its use: a sign-in by the session itself keeps it. */
    absoluteExpiresAt: number;
    verifiedAt: number | null;
    factorVerifiedAt: number | null;
    deputyId: string | null;
  } | null;
}

/** How the credential of a sign-in was proven (flows/complete-sign-in). */
export type SignInProof =
  | 'password'
  | 'mobileCode'
  | 'emailCode'
  | 'thirdParty'
  | 'qr'
  | 'session'
  /** A second verification answered with a factor of src/domain/factors (flows/second-verify). */
  | 'totp'
  | 'recoveryCode'
  /** …with a code sent to the account's verified e-mail. */
  | 'emailFactor'
  /** …with a factor registered later (its name is not a proof of its own yet). */
  | 'factor'
  | 'passkey'
  /** An organisation's identity provider, through its single sign-on connection (docs/enterprise-sso.md). */
  | 'enterpriseSso';

/**
 * What the adapter proved of a sign-in before its operation runs: how, whether the account is new, and
 * whether the browser is one the account remembers when second verification asked (otherwise the
 * device rotation's own write tells).
 */
export interface SignInProven {
  proof: SignInProof;
  newUser: boolean;
  remembered?: boolean | undefined;
  /**
   * When the person last proved it is them, for a sign-in vouched for by another session (a QR
   * confirmation): the new session keeps that time, not now, so confirming a QR code never renews a
   * stale session's step-up. Absent: the sign-in itself is the proof.
   */
  verifiedAt?: number | null | undefined;
  /**
   * The organisation (sec_subject_uid) the sign-in lands in, the person's identity there: a
   * third-party sign-in whose redirect named `subject_aid`, kept through a second verification.
   */
  subject?: string | undefined;
}

/** A sign-in written through the operation's transaction; the adapter sets its cookies after the commit. */
export interface OpenedSignIn {
  session: OpenedSession;
  /** The rotated or new device token; `known`: the account had remembered this browser before. */
  device: StoredDevice;
  /** The person's saved language (update/language), null when they never chose one. */
  language: 'zh' | 'en' | null;
}

/**
 * The sessions of the browser an operation serves, written through its transaction: a sign-in ends the
 * browser's session and stores the person's new one, a sign-out ends it. Nothing reaches the browser
 * here: the adapter sets or clears the cookies once the change has committed.
 */
export interface BrowserSessions {
  /** The session the browser presented; null when none. */
  readonly current: SignInBrowser['session'];
  /**
   * Ends the browser's session, stores `userId`'s (in `deputyId`, the personal identity by default) and
   * remembers the browser for the account (a presented device token is rotated). `keepVerification`:
   * a sign-in by the session itself, which proved nothing new: the new session keeps the old one's
   * verification times and absolute expiry, and NOT_LOGGED_IN if the old one has ended meanwhile;
   * `factor`: the sign-in proved a second factor.
   */
  open(
    userId: string,
    options?: {
      deputyId?: string | null;
      keepVerification?: boolean;
      factor?: boolean;
      verifiedAt?: number | null | undefined;
    },
  ): Promise<OpenedSignIn>;
  /** Ends the browser's session; answers whose it was, or null when it had none. */
  end(): Promise<{ userId: string } | null>;
  /**
   * Records that the person of the browser's session just proved it is them again (a step-up), with a
   * second factor when `factor`; answers when.
   */
  verified(options: { factor: boolean }): Promise<{ at: number }>;
}

const clip = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : null);

/** What the request's browser presented, for a sign-in or a sign-out. */
export function browserOf(app: FastifyInstance, request: FastifyRequest): SignInBrowser {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const session = request.session;
  return {
    ip: request.ip,
    userAgent: clip(request.headers['user-agent'], 512),
    fingerprint: clip(query.verifyFp, 128),
    did: clip(query.did, 64),
    deviceToken: app.devices.presented(request),
    session: session
      ? {
          id: session.id,
          userId: session.userId,
          absoluteExpiresAt: session.absoluteExpiresAt,
          verifiedAt: session.verifiedAt,
          factorVerifiedAt: session.factorVerifiedAt,
          deputyId: session.deputyId,
        }
      : null,
  };
}

/** Without a browser (an operation invoked by a test or a job) nobody can be signed in or out. */
const NO_BROWSER: BrowserSessions = {
  current: null,
  open: () => Promise.reject(new Error('no browser to sign in: call through a route')),
  end: () => Promise.resolve(null),
  verified: () => Promise.reject(new Error('no browser to verify: call through a route')),
};

/** The browser's sessions, through `tx` (src/adapters/invoke.ts makes one per operation). */
export function browserSessions(
  app: FastifyInstance,
  tx: Kysely<Database>,
  browser: SignInBrowser | undefined,
): BrowserSessions {
  if (!browser) return NO_BROWSER;
  return {
    current: browser.session,
    async open(userId, options = {}) {
      const session = await app.sessions.openFor(tx, browser, userId, options.deputyId ?? null, {
        keepVerification: options.keepVerification ?? false,
        factor: options.factor ?? false,
        verifiedAt: options.verifiedAt,
      });
      const device = await app.devices.storeFor(tx, userId, browser);
      const saved = await tx
        .selectFrom('users')
        .select('language')
        .where('id', '=', userId)
        .executeTakeFirst();
      return { session, device, language: knownLanguage(saved?.language) ?? null };
    },
    async end() {
      if (!browser.session) return null;
      await app.sessions.endFor(tx, browser.session.id);
      return { userId: browser.session.userId };
    },
    async verified({ factor }) {
      if (!browser.session) throw new PassportError('notLoggedIn');
      const at = app.runtime.now();
      await markSessionVerified(tx, browser.session.id, at, factor);
      return { at };
    },
  };
}
