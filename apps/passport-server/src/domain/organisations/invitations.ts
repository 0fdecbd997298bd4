import type { Kysely, Selectable } from 'kysely';
import type { Database, InvitationsTable, RoleRow, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { hmac, randomToken } from '../../lib/crypto';
import { mask } from '../../lib/identifiers';
import { isUniqueViolation, type PageArgs, window } from './organisations';

/**
 * Invitations: a ticket of 256 random bits handed out once (in the link) and stored only as
 * HMAC(secret, ticket); an expiry (INVITE_TTL_SECONDS); states pending → accepted | cancelled, with
 * `expired` read from the clock. Resending rotates the ticket, so the old link matches nothing. The SQL
 * takes the `tx` of the operation that reads or changes them.
 */

type Tx = Kysely<Database>;

export type InvitationRow = Selectable<InvitationsTable>;
export type InviteChannel = InvitationRow['channel'];
export type InvitationState = 'pending' | 'accepted' | 'cancelled' | 'expired';

/** A real ticket is 43 base64url characters; anything else cannot match and needs no query. */
export const INVITE_TICKET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The web app's page that opens an invitation (apps/web, docs/web.md): the one page a link leads to. */
export const INVITATION_PAGE = '/invite';

export const inviteTicketHash = (secret: Buffer, ticket: string) => hmac(secret, `invite|${ticket}`);

export function newInviteTicket(secret: Buffer) {
  const ticket = randomToken(32);
  return { ticket, hash: inviteTicketHash(secret, ticket) };
}

/** The link of a ticket: the server's own rule, PUBLIC_ORIGIN's invitation page; never the inviter's choice. */
export function invitationLink(publicOrigin: string, ticket: string): string {
  const url = new URL(INVITATION_PAGE, publicOrigin);
  url.searchParams.set('invite_ticket', ticket);
  return url.toString();
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

/** Whether the account holds the mobile or e-mail a bound invitation was sent to. */
export const holdsContact = (user: Pick<User, 'mobile' | 'email'>, row: InvitationRow) =>
  (row.channel === 'mobile' && user.mobile === row.contact) ||
  (row.channel === 'email' && user.email === row.contact);

/** Refuses what an accepted or cancelled invitation can no longer do. */
export function assertOpen(row: Pick<InvitationRow, 'state'>) {
  if (row.state === 'accepted') throw new PassportError('invitationUsed');
  if (row.state === 'cancelled') throw new PassportError('invitationCancelled');
}

export async function insertInvitation(tx: Tx, row: InvitationRow): Promise<void> {
  await tx.insertInto('invitations').values(row).execute();
}

/** Removes an invitation nobody received (its message failed), only while it is still pending. */
export async function deletePending(tx: Tx, id: string): Promise<boolean> {
  const done = await tx
    .deleteFrom('invitations')
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(done.numDeletedRows) === 1;
}

/** An invitation of the subject, or INVITATION_NOT_FOUND (also for another subject's). */
export async function invitationIn(tx: Tx, subjectId: string, id: string): Promise<InvitationRow> {
  const row = await tx
    .selectFrom('invitations')
    .selectAll()
    .where('id', '=', id)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
  if (!row) throw new PassportError('invitationNotFound');
  return row;
}

/** A subject's invitations, newest first, paged, filtered by state (`expired` read from the clock). */
export async function invitationPage(
  tx: Tx,
  subjectId: string,
  filter: PageArgs & { state?: InvitationState | undefined },
  now: number,
) {
  let base = tx.selectFrom('invitations').where('subject_id', '=', subjectId);
  if (filter.state === 'pending') base = base.where('state', '=', 'pending').where('expires_at', '>', now);
  else if (filter.state === 'expired')
    base = base.where('state', '=', 'pending').where('expires_at', '<=', now);
  else if (filter.state === 'accepted' || filter.state === 'cancelled')
    base = base.where('state', '=', filter.state);
  const { limit, offset } = window(filter);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n), limit };
}

/**
 * Changes a pending invitation; false when it is no longer pending (accepted or cancelled meanwhile):
 * the condition is the UPDATE's own, so two changes racing cannot both see it open.
 */
export async function updatePending(
  tx: Tx,
  id: string,
  fields: Partial<
    Pick<
      InvitationRow,
      'state' | 'deputy_name' | 'role_keys' | 'ticket_hash' | 'resent_count' | 'expires_at' | 'next_url'
    >
  > & { updated_at: number },
): Promise<boolean> {
  const done = await tx
    .updateTable('invitations')
    .set(fields)
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** The invitation of a ticket, open and not expired, or the reason it cannot be used. */
export async function liveInvitation(db: Tx, secret: Buffer, ticket: string, now: number) {
  if (!INVITE_TICKET_SHAPE.test(ticket)) throw new PassportError('invitationNotFound');
  const row = await db
    .selectFrom('invitations')
    .selectAll()
    .where('ticket_hash', '=', inviteTicketHash(secret, ticket))
    .executeTakeFirst();
  if (!row) throw new PassportError('invitationNotFound');
  assertOpen(row);
  if (stateOf(row, now) === 'expired') throw new PassportError('invitationExpired');
  return row;
}

export async function subjectName(tx: Tx, subjectId: string): Promise<string> {
  const subject = await tx
    .selectFrom('subjects')
    .select('name')
    .where('id', '=', subjectId)
    .executeTakeFirstOrThrow();
  return subject.name;
}

/** The roles of these keys in the subject, as they are now (fewer when some are gone). */
export async function rolesOfKeys(tx: Tx, subjectId: string, keys: readonly string[]): Promise<RoleRow[]> {
  if (keys.length === 0) return [];
  return tx
    .selectFrom('roles')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .where('role_key', 'in', keys)
    .execute();
}

/** The inviter's identity as it is now, if it still exists. */
export const inviterOf = (tx: Tx, row: InvitationRow) =>
  row.inviter_deputy_id
    ? tx.selectFrom('deputies').selectAll().where('id', '=', row.inviter_deputy_id).executeTakeFirst()
    : Promise.resolve(undefined);

/**
 * Spends the invitation for `userId`: a conditional UPDATE on the state, the ticket and the expiry, so
 * of any number of accepts racing exactly one changes the row; the others get INVITATION_USED.
 */
export async function markAccepted(tx: Tx, row: InvitationRow, userId: string, now: number): Promise<void> {
  const taken = await tx
    .updateTable('invitations')
    .set({ state: 'accepted', accepted_by: userId, accepted_at: now, updated_at: now })
    .where('id', '=', row.id)
    .where('state', '=', 'pending')
    .where('ticket_hash', '=', row.ticket_hash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw new PassportError('invitationUsed');
}

/** The identity the invitation names, made for `userId`, with its roles; ALREADY_MEMBER if they are one. */
export async function insertInvitedMember(
  tx: Tx,
  row: InvitationRow,
  userId: string,
  roles: readonly RoleRow[],
  now: number,
): Promise<void> {
  try {
    await tx
      .insertInto('deputies')
      .values({
        id: row.deputy_id,
        subject_id: row.subject_id,
        user_id: userId,
        deputy_name: row.deputy_name,
        is_manager: 0,
        is_frozen: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new PassportError('alreadyMember');
    throw error;
  }
  for (const role of roles)
    await tx
      .insertInto('deputy_roles')
      .values({ deputy_id: row.deputy_id, role_id: role.id, subject_id: row.subject_id, created_at: now })
      .execute();
}
