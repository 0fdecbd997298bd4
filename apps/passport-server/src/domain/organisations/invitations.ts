import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { InvitationsTable } from '../../db/schema';
import { hmac, randomToken } from '../../lib/crypto';
import { mask } from '../../lib/identifiers';

/**
 * Invitations (issue 13): a ticket of 256 random bits handed out once (in the link) and stored only as
 * HMAC(secret, ticket); an expiry (INVITE_TTL_SECONDS); states pending → accepted | cancelled, with
 * `expired` read from the clock. Resending rotates the ticket, so the old link matches nothing.
 */

export type InvitationRow = Selectable<InvitationsTable>;
export type InvitationState = 'pending' | 'accepted' | 'cancelled' | 'expired';

/** A real ticket is 43 base64url characters; anything else cannot match and needs no query. */
export const INVITE_TICKET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const inviteTicketHash = (app: FastifyInstance, ticket: string) =>
  hmac(app.secret, `invite|${ticket}`);

export function newInviteTicket(app: FastifyInstance) {
  const ticket = randomToken(32);
  return { ticket, hash: inviteTicketHash(app, ticket) };
}

export const stateOf = (row: Pick<InvitationRow, 'state' | 'expires_at'>, now: number): InvitationState =>
  row.state === 'pending' && Number(row.expires_at) <= now ? 'expired' : row.state;

/** The contact as the inviter's list and the invitee's preview show it. */
export function shownContact(row: Pick<InvitationRow, 'channel' | 'contact'>): string | null {
  if (row.contact === null) return null;
  if (row.channel === 'mobile' || row.channel === 'email') return mask(row.contact);
  return row.contact;
}

const parsed = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export const roleKeysOf = (row: Pick<InvitationRow, 'role_keys'>): string[] => {
  const list = parsed<unknown>(row.role_keys, []);
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
};

export const invitationView = (row: InvitationRow, now: number) => ({
  invite_id: row.id,
  sec_subject_uid: row.subject_id,
  channel: row.channel,
  contact: shownContact(row),
  deputy_identity_id: row.deputy_id,
  deputy_name: row.deputy_name,
  role_keys: roleKeysOf(row),
  state: stateOf(row, now),
  inviter_identity_id: row.inviter_deputy_id,
  inviter_name: row.inviter_name,
  next_url: row.next_url,
  extra: parsed<Record<string, unknown>>(row.extra, {}),
  resent_count: Number(row.resent_count),
  expires_at: Number(row.expires_at),
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
});
