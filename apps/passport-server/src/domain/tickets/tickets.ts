import type { FastifyInstance } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import { PassportError } from '../../errors';
import { hmac, randomToken } from '../../lib/crypto';
import type { Channel } from '../codes/codes';

/** What a ticket proves: that its holder received a code for `purpose` at `target` over `channel`. */
export interface TicketClaim {
  purpose: number;
  channel: Channel;
  target: string;
  /** The signed-in user the code was checked for, when the purpose needs a session. */
  userId?: string | null;
}

export interface IssuedTicket {
  ticket: string;
  /** Seconds the ticket stays valid. */
  expiresIn: number;
}

export interface TicketDemand {
  ticket: string;
  /** The purposes the consuming endpoint serves: a reset ticket never registers, and the reverse. */
  purposes: ReadonlySet<number>;
  channel: Channel;
  /** When the request names its target, the ticket must be for that target. */
  target?: string;
  /** For a signed-in purpose: the ticket must have been issued to this user. */
  userId?: string;
}

export interface Tickets {
  /** Issues a single-use ticket for a verified code; it lives `ttlMs` (default `limits.ticketTtlMs`). */
  issue(claim: TicketClaim, ttlMs?: number): Promise<IssuedTicket>;
  /** Uses a ticket up, or throws TICKET_INVALID (unknown, used, expired, or for another purpose/target). */
  consume(demand: TicketDemand): Promise<Required<TicketClaim>>;
  /** What a live ticket would give `consume`, without using it up (to check input before spending it). */
  peek(demand: TicketDemand): Promise<Required<TicketClaim>>;
}

const TICKET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Verify tickets: 256 random bits handed to the client once, stored only as HMAC(secret, ticket), bound
 * to purpose + channel + target, alive `limits.ticketTtlMs` (10 min). Consumption is one conditional
 * UPDATE (`used_at IS NULL`, not expired, purpose/channel/target matching) with RETURNING: of many
 * concurrent uses exactly one gets the row. A use for the wrong purpose or target matches no row and
 * leaves the ticket alone, so it cannot be burnt by someone who does not know what it is for.
 */
export function createTickets(
  app: FastifyInstance,
  /** Where the tickets are read and written: an operation's transaction (ctx.tickets), else the app's handle. */
  db = app.db,
): Tickets {
  const { secret, runtime } = app;
  const hashOf = (ticket: string) => hmac(secret, `ticket|${ticket}`);

  /** The conditions of a live ticket that answers the demand. */
  function matching(demand: TicketDemand, now: number) {
    // A real ticket is 43 base64url characters; anything else cannot match and needs no query.
    if (!TICKET_SHAPE.test(demand.ticket) || demand.purposes.size === 0)
      throw new PassportError('ticketInvalid');
    const conditions = {
      ticket_hash: hashOf(demand.ticket),
      channel: demand.channel,
      ...(demand.target === undefined ? {} : { target: demand.target }),
      ...(demand.userId === undefined ? {} : { user_id: demand.userId }),
    };
    return (eb: ExpressionBuilder<Database, 'verify_tickets'>) =>
      eb.and([
        ...Object.entries(conditions).map(([column, value]) => eb(column as 'ticket_hash', '=', value)),
        eb('used_at', 'is', null),
        eb('expires_at', '>', now),
        eb('purpose', 'in', [...demand.purposes]),
      ]);
  }

  function claimOf(
    row: { purpose: number; channel: Channel; target: string; user_id: string | null } | undefined,
  ): Required<TicketClaim> {
    if (!row) throw new PassportError('ticketInvalid');
    return { purpose: Number(row.purpose), channel: row.channel, target: row.target, userId: row.user_id };
  }

  const tickets: Tickets = {
    async issue(claim, ttlMs = runtime.limits.ticketTtlMs) {
      const ticket = randomToken(32);
      const now = runtime.now();
      await db
        .insertInto('verify_tickets')
        .values({
          ticket_hash: hashOf(ticket),
          purpose: claim.purpose,
          channel: claim.channel,
          target: claim.target,
          user_id: claim.userId ?? null,
          created_at: now,
          expires_at: now + ttlMs,
          used_at: null,
        })
        .execute();
      return { ticket, expiresIn: Math.round(ttlMs / 1000) };
    },

    async consume(demand) {
      const now = runtime.now();
      const where = matching(demand, now);
      const row = await db
        .updateTable('verify_tickets')
        .set({ used_at: now })
        .where(where)
        .returning(['purpose', 'channel', 'target', 'user_id'])
        .executeTakeFirst();
      return claimOf(row);
    },

    async peek(demand) {
      const where = matching(demand, runtime.now());
      const row = await db
        .selectFrom('verify_tickets')
        .select(['purpose', 'channel', 'target', 'user_id'])
        .where(where)
        .executeTakeFirst();
      return claimOf(row);
    },
  };
  return tickets;
}
