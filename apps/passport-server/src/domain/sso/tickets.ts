import type { KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { hmac, randomToken } from '../../lib/crypto';
import type { Store } from '../../store/store';

/** A ticket lives at most this long: the browser's hop from /sso/login to the service's back end. */
export const SSO_TICKET_TTL_MS = 60_000;

/** `ST-` and 256 random bits in base64url (the CAS spelling of a service ticket). */
export const SSO_TICKET_SHAPE = /^ST-[A-Za-z0-9_-]{43}$/;

/** What a ticket holds, in the store under the HMAC of the ticket. */
interface Grant {
  service: string;
  /** The session (SHA-256 of its cookie token) the ticket was handed out from. */
  sessionId: string;
  userId: string;
  expiresAt: number;
}

/** The user a valid ticket names: identifiers masked by the caller. */
export interface TicketUser {
  id: string;
  screenName: string;
  mobile: string | null;
  email: string | null;
  frozen: boolean;
}

export type Validation = { ok: true; user: TicketUser } | { ok: false; reason: 'invalid' | 'frozen' };

export interface SsoTicketsDeps {
  store: Store;
  db: Kysely<Database>;
  secret: Buffer | KeyObject;
  now: () => number;
}

/**
 * Service tickets. Each is handed to the browser once, stored only as HMAC(secret, ticket) in the
 * store (the database or Redis) for 60 s, and bound to the exact service URL and to the session it
 * came from. Validation takes the entry out atomically (DELETE … RETURNING, or GETDEL in Redis), so
 * of many concurrent validations exactly one gets it; any validation attempt uses the ticket up,
 * a failed one too (CAS: one attempt per ticket). A ticket whose session has ended since is invalid.
 */
export function ssoTickets({ store, db, secret, now }: SsoTicketsDeps) {
  const keyOf = (ticket: string) => `sso-ticket:${hmac(secret, `sso-ticket|${ticket}`)}`;

  return {
    async issue(service: string, session: { id: string; userId: string }): Promise<string> {
      const ticket = `ST-${randomToken(32)}`;
      const grant: Grant = {
        service,
        sessionId: session.id,
        userId: session.userId,
        expiresAt: now() + SSO_TICKET_TTL_MS,
      };
      await store.set(keyOf(ticket), JSON.stringify(grant), SSO_TICKET_TTL_MS);
      return ticket;
    },

    async validate(service: string, ticket: string): Promise<Validation> {
      if (!SSO_TICKET_SHAPE.test(ticket)) return { ok: false, reason: 'invalid' };
      const taken = await store.take(keyOf(ticket));
      if (taken === null) return { ok: false, reason: 'invalid' };
      const grant = JSON.parse(taken) as Grant;
      // Redis expires the key on its own clock; the grant's own expiry holds on every store.
      const at = now();
      if (grant.expiresAt <= at || grant.service !== service) return { ok: false, reason: 'invalid' };
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.screen_name', 'users.mobile', 'users.email', 'users.is_frozen'])
        .where('sessions.token_hash', '=', grant.sessionId)
        .where('sessions.user_id', '=', grant.userId)
        .where('sessions.expires_at', '>', at)
        .where('sessions.absolute_expires_at', '>', at)
        .executeTakeFirst();
      if (!row) return { ok: false, reason: 'invalid' };
      const user: TicketUser = {
        id: row.id,
        screenName: row.screen_name,
        mobile: row.mobile,
        email: row.email,
        frozen: Number(row.is_frozen) !== 0,
      };
      return user.frozen ? { ok: false, reason: 'frozen' } : { ok: true, user };
    },
  };
}

export type SsoTickets = ReturnType<typeof ssoTickets>;
