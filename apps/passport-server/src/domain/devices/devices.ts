import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';
import { fieldOf } from '../challenge/challenges';

/** A remembered device as the account's own list shows it: never its token, nor the token's hash. */
export interface DeviceView {
  id: string;
  first_seen_at: number;
  last_seen_at: number;
  /** "Chrome on macOS", from the user agent of its latest sign-in. */
  user_agent: string;
  /** Whether the listing request comes from this device. */
  current: boolean;
}

export interface Devices {
  /** The device-token cookie's name: `passport_device`, or `__Host-passport_device` behind https. */
  readonly cookieName: string;
  /**
   * SHA-256 of the fingerprint the request says it has (`verifyFp` query, `fp`, the `s_v_web_id`
   * cookie) and its `did`; null when missing or shorter than 16 characters. A hint (it binds a pending
   * second verification to the device that started it), never a proof of a remembered device.
   */
  keyOf(request: FastifyRequest): string | null;
  /** SHA-256 of the device token the request presents (remembered or not), or null. */
  tokenHashOf(request: FastifyRequest): string | null;
  /** Whether the request presents a live device token the account has remembered. */
  isRemembered(userId: string, request: FastifyRequest): Promise<boolean>;
  /**
   * Whether the request presents a live device token remembered by the account whose mobile or
   * e-mail is `target`: the owner on a device the account knows (src/domain/risk, the code lanes).
   */
  knowsTarget(request: FastifyRequest, channel: 'mobile' | 'email', target: string): Promise<boolean>;
  /**
   * Remembers the request's browser for the account: a presented live token is rotated (every
   * account that remembers it follows the new one), otherwise a new token is issued; the cookie is set.
   */
  remember(userId: string, request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * remember in two halves, for a sign-in that is part of a transaction: `store` writes through `db`
   * and answers the new token and whether the account already remembered this browser (the token it
   * presented was live and the account's: what isRemembered would have answered, read from the
   * rotation's own write); `setCookie`, after the commit, hands the token to the browser.
   */
  store(db: Kysely<Database>, userId: string, request: FastifyRequest): Promise<StoredDevice>;
  /** `store` for what the browser presented, as values (src/domain/sessions/browser.ts). */
  storeFor(
    db: Kysely<Database>,
    userId: string,
    browser: { deviceToken: string | null; userAgent: string | null },
  ): Promise<StoredDevice>;
  /** SHA-256 of the device token the request presents, when a well-formed one; else null. */
  presented(request: FastifyRequest): string | null;
  setCookie(reply: FastifyReply, stored: StoredDevice): void;
  list(userId: string, request: FastifyRequest): Promise<DeviceView[]>;
  /** Forgets (revokes the token of) one of the account's devices; false when it has no such device. */
  forget(userId: string, id: string): Promise<boolean>;
}

/** A device token stored by `store`, not yet in the browser. */
export interface StoredDevice {
  token: string;
  /** Whether the account had remembered this browser before (a live token of its own was presented). */
  known: boolean;
}

/** Below this a fingerprint is too guessable to stand for a device (the SDK's own are ~45 characters). */
const MIN_FINGERPRINT = 16;

/** A device token is 32 random bytes in base64url (43 characters); anything else is not one. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** "Chrome on macOS": the browser and system families a person recognises, nothing more specific. */
export function userAgentSummary(ua: string | null): string {
  if (!ua) return 'Unknown device';
  const browser =
    [
      [/Edg(e|A|iOS)?\//, 'Edge'],
      [/OPR\/|Opera/, 'Opera'],
      [/Firefox\/|FxiOS\//, 'Firefox'],
      [/Chrome\/|CriOS\//, 'Chrome'],
      [/Safari\//, 'Safari'],
      [/okhttp|Dalvik|CFNetwork/, 'App'],
    ].find(([pattern]) => (pattern as RegExp).test(ua))?.[1] ?? 'Browser';
  const system =
    [
      [/iPhone|iPad|iPod/, 'iOS'],
      [/Android/, 'Android'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ].find(([pattern]) => (pattern as RegExp).test(ua))?.[1] ?? 'unknown system';
  return `${browser} on ${system}`;
}

/**
 * The `devices` table: the browsers each account has signed in from and verified. What proves a device
 * is a server secret, never what the client says: a random 256-bit token in an HttpOnly cookie, stored
 * as its SHA-256 with an expiry, rotated on every sign-in that presents it. One browser holds one token;
 * every account that remembered the browser has a row with the token's current hash, so a rotation
 * moves them all and forgetting the device for one account leaves the others alone.
 */
export function createDevices(app: FastifyInstance): Devices {
  const { db, runtime, config } = app;
  const secure = config.publicOrigin.startsWith('https:');
  const cookieName = secure ? '__Host-passport_device' : 'passport_device';
  const trustMs = runtime.limits.deviceTrustMs;
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };

  const keyOf = (request: FastifyRequest): string | null => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const verifyFp = typeof query.verifyFp === 'string' ? query.verifyFp.trim() : '';
    const fingerprint = verifyFp || fieldOf(request, 'fp') || request.cookies?.s_v_web_id?.trim() || '';
    if (fingerprint.length < MIN_FINGERPRINT || fingerprint.length > 128) return null;
    const did = typeof query.did === 'string' ? query.did.slice(0, 64) : '';
    return sha256(`device|${fingerprint}|${did}`);
  };

  /** SHA-256 of the device token the request presents, or null. */
  const presentedHash = (request: FastifyRequest): string | null => {
    const token = request.cookies?.[cookieName];
    return token && TOKEN_PATTERN.test(token) ? sha256(token) : null;
  };

  const userAgentOf = (request: FastifyRequest) => {
    const value = request.headers['user-agent'];
    return typeof value === 'string' ? value.slice(0, 512) : null;
  };

  const devices: Devices = {
    cookieName,
    keyOf,
    tokenHashOf: presentedHash,
    async isRemembered(userId, request) {
      const hash = presentedHash(request);
      if (!hash) return false;
      const row = await db
        .selectFrom('devices')
        .select('id')
        .where('user_id', '=', userId)
        .where('token_hash', '=', hash)
        .where('expires_at', '>', runtime.now())
        .executeTakeFirst();
      return row !== undefined;
    },
    async knowsTarget(request, channel, target) {
      const hash = presentedHash(request);
      if (!hash) return false;
      const row = await db
        .selectFrom('devices')
        .innerJoin('users', 'users.id', 'devices.user_id')
        .select('devices.id')
        .where(`users.${channel}`, '=', target)
        .where('devices.token_hash', '=', hash)
        .where('devices.expires_at', '>', runtime.now())
        .executeTakeFirst();
      return row !== undefined;
    },
    store(through, userId, request) {
      return devices.storeFor(through, userId, {
        deviceToken: presentedHash(request),
        userAgent: userAgentOf(request),
      });
    },
    presented: presentedHash,
    async storeFor(through, userId, browser) {
      const now = runtime.now();
      const token = randomToken(32);
      const hash = sha256(token);
      const expiresAt = now + trustMs;
      const presented = browser.deviceToken;
      // Rotation: the presented token dies for every account that remembered it. An unknown, expired
      // or already rotated token moves nothing (of two concurrent sign-ins one rotates).
      const moved = presented
        ? await through
            .updateTable('devices')
            .set({ token_hash: hash, expires_at: expiresAt })
            .where('token_hash', '=', presented)
            .where('expires_at', '>', now)
            .returning('user_id')
            .execute()
        : [];
      const userAgent = browser.userAgent;
      await through
        .insertInto('devices')
        .values({
          id: randomUUID(),
          user_id: userId,
          token_hash: hash,
          expires_at: expiresAt,
          first_seen_at: now,
          last_seen_at: now,
          user_agent: userAgent,
        })
        .onConflict((oc) =>
          oc.columns(['user_id', 'token_hash']).doUpdateSet({ last_seen_at: now, user_agent: userAgent }),
        )
        .execute();
      return { token, known: moved.some((row) => row.user_id === userId) };
    },
    setCookie(reply, stored) {
      reply.setCookie(cookieName, stored.token, { ...cookieOptions, maxAge: Math.floor(trustMs / 1000) });
    },
    async remember(userId, request, reply) {
      devices.setCookie(reply, await devices.store(db, userId, request));
    },
    list: (userId, request) => devicesOf(db, userId, runtime.now(), presentedHash(request)),
    forget: (userId, id) => forgetDevice(db, userId, id),
  };

  return devices;
}

/**
 * The account's live remembered devices through `db` (an operation's transaction), newest first;
 * `current` marks the one whose token hash is `presented` (the listing browser's).
 */
export async function devicesOf(
  db: Kysely<Database>,
  userId: string,
  now: number,
  presented: string | null,
): Promise<DeviceView[]> {
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'token_hash', 'first_seen_at', 'last_seen_at', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    first_seen_at: Number(row.first_seen_at),
    last_seen_at: Number(row.last_seen_at),
    user_agent: userAgentSummary(row.user_agent),
    current: presented !== null && row.token_hash === presented,
  }));
}

/** Forgets (deletes the token of) one of the account's devices through `db`; false when it has none such. */
export async function forgetDevice(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('devices')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
