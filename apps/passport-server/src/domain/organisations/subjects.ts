import type { Kysely, Updateable } from 'kysely';
import type { Database, DeputyRow, SubjectRow, SubjectsTable } from '../../db/schema';
import { PassportError } from '../../errors';
import { type PageArgs, window } from './organisations';

/** Subjects (organisations), through the `tx` of the operation that reads or changes them. */

type Tx = Kysely<Database>;

/**
 * CANCELLATION_PENDING unless the account is not being cancelled, its row held until the transaction
 * ends: a cancellation confirmed beside it waits, then sees the organisation the account manages. An
 * UPDATE that changes nothing takes the row lock on every dialect (SQLite's writer lock, PostgreSQL's
 * row lock) without a dialect-specific FOR UPDATE.
 */
export async function holdAccountNotLeaving(tx: Tx, userId: string): Promise<void> {
  const held = await tx
    .updateTable('users')
    .set((eb) => ({ cancel_erase_at: eb.ref('cancel_erase_at') }))
    .where('id', '=', userId)
    .where('cancel_erase_at', 'is', null)
    .executeTakeFirst();
  if (Number(held.numUpdatedRows) !== 1) throw new PassportError('cancellationPending');
}

/** A new subject and its one manager. */
export async function insertSubject(tx: Tx, subject: SubjectRow, manager: DeputyRow): Promise<void> {
  await tx.insertInto('subjects').values(subject).execute();
  await tx.insertInto('deputies').values(manager).execute();
}

/** The subjects a person has an identity in (or, given, that one identity's), paged. */
export async function subjectPage(tx: Tx, userId: string, deputyId: string | undefined, page: PageArgs) {
  let base = tx
    .selectFrom('subjects')
    .innerJoin('deputies', 'deputies.subject_id', 'subjects.id')
    .where('deputies.user_id', '=', userId);
  if (deputyId) base = base.where('deputies.id', '=', deputyId);
  const { limit, offset } = window(page);
  const rows = await base
    .selectAll('subjects')
    .orderBy('subjects.created_at')
    .orderBy('subjects.id')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n), limit };
}

/** Changes a subject's fields; answers the subject as it is now. */
export async function updateSubjectRow(
  tx: Tx,
  subjectId: string,
  set: Updateable<SubjectsTable>,
): Promise<SubjectRow> {
  await tx.updateTable('subjects').set(set).where('id', '=', subjectId).execute();
  return tx.selectFrom('subjects').selectAll().where('id', '=', subjectId).executeTakeFirstOrThrow();
}
