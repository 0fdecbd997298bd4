import type { Kysely } from 'kysely';
import { onPostgres } from '../../db/dialect';
import type { Database, ManagerTransfersTable, User } from '../../db/schema';
import { PassportError } from '../../errors';
import { mask } from '../../lib/identifiers';
import type { Channel } from '../codes/codes';
import { deputyIn } from './actors';

/**
 * The manager transfer's rows (docs/organisations.md, "Handing the organisation over"), read and
 * written through the transaction given. One pending transfer per subject (the table's primary key);
 * the tickets between its steps are verify tickets (src/domain/tickets) of the purposes below.
 */

/** How long a ticket between steps lives. */
export const TRANSFER_TICKET_MS = 5 * 60_000;
/** How long a named new manager has to verify and accept. */
export const TRANSFER_PENDING_MS = 30 * 60_000;

/**
 * The tickets' purposes (never code types: no code is sent for them). A manager's ticket is bound to
 * the subject and their identity, a new manager's to the transfer and both identities; both to the
 * person who earned it. The channel of a ticket is not a contact here: always 'mobile'.
 */
export const FROM_TICKET_PURPOSE = 9101;
export const TO_TICKET_PURPOSE = 9102;
export const TICKET_CHANNEL = 'mobile' as const;
export const fromTicketTarget = (subjectId: string, deputyId: string) => `${subjectId}|${deputyId}`;
export const toTicketTarget = (t: {
  subject_id: string;
  id: string;
  from_deputy_id: string;
  to_deputy_id: string;
}) => `${t.subject_id}|${t.id}|${t.from_deputy_id}|${t.to_deputy_id}`;
/** A new manager's ticket target, read back: the transfer it names. */
export function parseToTicketTarget(target: string) {
  const [subject_id = '', id = '', from_deputy_id = '', to_deputy_id = ''] = target.split('|');
  return { subject_id, id, from_deputy_id, to_deputy_id };
}

/** Where a person's code goes: the chosen channel, or their mobile, else their e-mail. */
export function contactOf(
  user: Pick<User, 'mobile' | 'email'>,
  channel?: Channel,
): { channel: Channel; target: string } {
  const wanted: Channel[] = channel ? [channel] : ['mobile', 'email'];
  for (const c of wanted) {
    const target = c === 'mobile' ? user.mobile : user.email;
    if (target) return { channel: c, target };
  }
  throw new PassportError('contactMissing');
}

/**
 * Serialises the transfer's steps of one subject: its row is locked (PostgreSQL) until the transaction
 * ends, so two starts, a commit and an abandon of one subject run one after another and each sees
 * what the one before it did.
 */
export async function lockSubject(trx: Kysely<Database>, subjectId: string): Promise<void> {
  if (onPostgres(trx))
    await trx.selectFrom('subjects').select('id').where('id', '=', subjectId).forUpdate().execute();
}

/**
 * A member who may become the manager: another, unfrozen identity of an open account with a contact
 * (the caller locks the account with assertStaying before naming it).
 */
export async function candidate(
  trx: Kysely<Database>,
  subjectId: string,
  callerDeputyId: string,
  deputyId: string,
) {
  const deputy = await deputyIn(trx, subjectId, deputyId);
  if (deputy.id === callerDeputyId || Number(deputy.is_frozen) === 1)
    throw new PassportError('newManagerInvalid');
  const user = await trx.selectFrom('users').selectAll().where('id', '=', deputy.user_id).executeTakeFirst();
  if (!user || Number(user.is_frozen) === 1 || user.erased_at !== null)
    throw new PassportError('newManagerInvalid');
  if (user.cancel_erase_at !== null) throw new PassportError('cancellationPending');
  return { deputy, user, to: contactOf(user) };
}

/** The subject's open transfer with the names and the new manager's contacts (expired ones are deleted). */
export async function openTransfer(trx: Kysely<Database>, subjectId: string, now: number) {
  await trx
    .deleteFrom('manager_transfers')
    .where('subject_id', '=', subjectId)
    .where('expires_at', '<=', now)
    .execute();
  return trx
    .selectFrom('manager_transfers')
    .innerJoin('deputies as f', 'f.id', 'manager_transfers.from_deputy_id')
    .innerJoin('deputies as t', 't.id', 'manager_transfers.to_deputy_id')
    .innerJoin('users as tu', 'tu.id', 'manager_transfers.to_user_id')
    .selectAll('manager_transfers')
    .select([
      'f.deputy_name as from_name',
      't.deputy_name as to_name',
      'tu.mobile as to_mobile',
      'tu.email as to_email',
    ])
    .where('manager_transfers.subject_id', '=', subjectId)
    .executeTakeFirst();
}

export type OpenTransfer = NonNullable<Awaited<ReturnType<typeof openTransfer>>>;

/** The pending transfer as either side sees it. */
export const transferView = (row: OpenTransfer, userId: string) => ({
  transfer_id: row.id,
  sec_subject_uid: row.subject_id,
  from_identity_id: row.from_deputy_id,
  from_name: row.from_name,
  to_identity_id: row.to_deputy_id,
  to_name: row.to_name,
  contact: mask((row.channel === 'mobile' ? row.to_mobile : row.to_email) ?? ''),
  channel: row.channel,
  role: row.from_user_id === userId ? ('from' as const) : ('to' as const),
  expires_at: Number(row.expires_at),
});

/** Records the pending transfer (the caller locked the subject and found none open). */
export async function insertTransfer(trx: Kysely<Database>, row: ManagerTransfersTable): Promise<void> {
  await trx.insertInto('manager_transfers').values(row).execute();
}

/** Deletes the transfer; false when it was no longer there. */
export async function deleteTransfer(
  trx: Kysely<Database>,
  transfer: { subject_id: string; id: string; from_deputy_id?: string; to_deputy_id?: string },
  now?: number,
): Promise<boolean> {
  let query = trx
    .deleteFrom('manager_transfers')
    .where('subject_id', '=', transfer.subject_id)
    .where('id', '=', transfer.id);
  if (transfer.from_deputy_id) query = query.where('from_deputy_id', '=', transfer.from_deputy_id);
  if (transfer.to_deputy_id) query = query.where('to_deputy_id', '=', transfer.to_deputy_id);
  if (now !== undefined) query = query.where('expires_at', '>', now);
  return Number((await query.executeTakeFirst()).numDeletedRows) === 1;
}

/**
 * The old manager steps down and the new one up, in this order: the partial unique index
 * `deputies_one_manager` admits no other, so at every instant the subject has exactly one manager.
 */
export async function handOver(
  trx: Kysely<Database>,
  subjectId: string,
  from: string,
  to: string,
  now: number,
): Promise<void> {
  const down = await trx
    .updateTable('deputies')
    .set({ is_manager: 0, updated_at: now })
    .where('id', '=', from)
    .where('subject_id', '=', subjectId)
    .where('is_manager', '=', 1)
    .executeTakeFirst();
  if (Number(down.numUpdatedRows) !== 1) throw new PassportError('managerConflict');
  const up = await trx
    .updateTable('deputies')
    .set({ is_manager: 1, updated_at: now })
    .where('id', '=', to)
    .where('subject_id', '=', subjectId)
    .where('is_frozen', '=', 0)
    .executeTakeFirst();
  if (Number(up.numUpdatedRows) !== 1) throw new PassportError('newManagerInvalid');
}

/** Who manages the subject: no secret to its members. */
export function managerIdentity(trx: Kysely<Database>, subjectId: string) {
  return trx
    .selectFrom('deputies')
    .select(['id', 'deputy_name'])
    .where('subject_id', '=', subjectId)
    .where('is_manager', '=', 1)
    .executeTakeFirst();
}
