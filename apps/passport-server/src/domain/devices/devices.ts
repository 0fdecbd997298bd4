import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256 } from '../../lib/crypto';
import { fieldOf } from '../challenge/challenges';

/** A remembered device as the account's own list shows it: never the fingerprint, nor its hash. */
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
  /**
   * The device a request comes from: SHA-256 of its fingerprint (`verifyFp` query, `fp`, the
   * `s_v_web_id` cookie) and its `did`; null when the fingerprint is missing or shorter than 16
   * characters, which no sign-in can be recognised by.
   */
  keyOf(request: FastifyRequest): string | null;
  /** Whether the account has remembered this device. */
  isRemembered(userId: string, key: string | null): Promise<boolean>;
  /** Remembers the request's device for the account (or refreshes its last-seen time and user agent). */
  remember(userId: string, request: FastifyRequest): Promise<void>;
  list(userId: string, request: FastifyRequest): Promise<DeviceView[]>;
  /** Forgets one of the account's devices; false when the account has no device with that id. */
  forget(userId: string, id: string): Promise<boolean>;
}

/** Below this a fingerprint is too guessable to stand for a device (the SDK's own are ~45 characters). */
const MIN_FINGERPRINT = 16;

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

/** The `devices` table: the devices each account has signed in from and verified. */
export function createDevices(app: FastifyInstance): Devices {
  const { db, runtime } = app;

  const keyOf = (request: FastifyRequest): string | null => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const verifyFp = typeof query.verifyFp === 'string' ? query.verifyFp.trim() : '';
    const fingerprint = verifyFp || fieldOf(request, 'fp') || request.cookies?.s_v_web_id?.trim() || '';
    if (fingerprint.length < MIN_FINGERPRINT || fingerprint.length > 128) return null;
    const did = typeof query.did === 'string' ? query.did.slice(0, 64) : '';
    return sha256(`device|${fingerprint}|${did}`);
  };

  const userAgentOf = (request: FastifyRequest) => {
    const value = request.headers['user-agent'];
    return typeof value === 'string' ? value.slice(0, 512) : null;
  };

  const devices: Devices = {
    keyOf,
    async isRemembered(userId, key) {
      if (!key) return false;
      const row = await db
        .selectFrom('devices')
        .select('id')
        .where('user_id', '=', userId)
        .where('fp', '=', key)
        .where('trusted', '=', 1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async remember(userId, request) {
      const key = keyOf(request);
      if (!key) return;
      const now = runtime.now();
      const userAgent = userAgentOf(request);
      await db
        .insertInto('devices')
        .values({
          id: randomUUID(),
          user_id: userId,
          fp: key,
          trusted: 1,
          first_seen_at: now,
          last_seen_at: now,
          user_agent: userAgent,
        })
        .onConflict((oc) =>
          oc.columns(['user_id', 'fp']).doUpdateSet({ trusted: 1, last_seen_at: now, user_agent: userAgent }),
        )
        .execute();
    },
    async list(userId, request) {
      const key = keyOf(request);
      const rows = await db
        .selectFrom('devices')
        .select(['id', 'fp', 'first_seen_at', 'last_seen_at', 'user_agent'])
        .where('user_id', '=', userId)
        .where('trusted', '=', 1)
        .orderBy('last_seen_at', 'desc')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        first_seen_at: Number(row.first_seen_at),
        last_seen_at: Number(row.last_seen_at),
        user_agent: userAgentSummary(row.user_agent),
        current: key !== null && row.fp === key,
      }));
    },
    async forget(userId, id) {
      const result = await db
        .deleteFrom('devices')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };

  return devices;
}
