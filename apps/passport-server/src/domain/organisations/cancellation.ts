import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { CancellationRegistry } from '../cancellation/registry';

/**
 * What organisations mean for an account's cancellation: a manager hands the organisation over first
 * (a subject always has exactly one manager, so it cannot lose it), the memberships are listed as lost,
 * and erasure removes them with their role links and takes the person's id and contacts out of the
 * invitations.
 */

/** The names of the organisations a person manages. */
const managedBy = (db: Kysely<Database>, userId: string) =>
  db
    .selectFrom('deputies')
    .innerJoin('subjects', 'subjects.id', 'deputies.subject_id')
    .select('subjects.name')
    .where('deputies.user_id', '=', userId)
    .where('deputies.is_manager', '=', 1)
    .execute();

export function addOrganisationCancelRules(registry: CancellationRegistry): void {
  registry.addBlocker({
    key: 'sole_manager',
    check: async ({ db }, user) => {
      const managed = await managedBy(db, user.id);
      return managed.length > 0 ? { organisations: managed.map((row) => row.name) } : null;
    },
    // The check and the confirmation are two requests: an organisation created between them must not
    // lose its manager to the erasure.
    holdsErasure: async (trx, userId) => (await managedBy(trx, userId)).length > 0,
  });
  // An open manager transfer on either side: finish or abandon it first.
  registry.addBlocker({
    key: 'open_transfer',
    check: async ({ db, now }, user) => {
      const open = await db
        .selectFrom('manager_transfers')
        .innerJoin('subjects', 'subjects.id', 'manager_transfers.subject_id')
        .select('subjects.name')
        .where((eb) => eb.or([eb('from_user_id', '=', user.id), eb('to_user_id', '=', user.id)]))
        .where('manager_transfers.expires_at', '>', now)
        .execute();
      return open.length > 0 ? { organisations: open.map((row) => row.name) } : null;
    },
  });
  registry.addLoss({
    key: 'organisation_memberships',
    count: async ({ db }, user) =>
      Number(
        (
          await db
            .selectFrom('deputies')
            .select((eb) => eb.fn.countAll().as('count'))
            .where('user_id', '=', user.id)
            .executeTakeFirstOrThrow()
        ).count,
      ),
  });
  registry.addEraser({
    key: 'deputies',
    erase: async (trx, userId) => {
      const mine = trx.selectFrom('deputies').select('id').where('user_id', '=', userId);
      await trx.deleteFrom('sessions').where('deputy_id', 'in', mine).execute();
      await trx.deleteFrom('deputy_roles').where('deputy_id', 'in', mine).execute();
      await trx.deleteFrom('deputies').where('user_id', '=', userId).execute();
    },
  });
  // The invitations keep their organisation's history (who was invited as what, and when) without the
  // person: no account id, no mobile or e-mail. One still pending to their contact is cancelled.
  registry.addEraser({
    key: 'invitations',
    erase: async (trx, userId, { mobile, email }) => {
      await trx
        .updateTable('invitations')
        .set({ accepted_by: null })
        .where('accepted_by', '=', userId)
        .execute();
      const contacts = [mobile, email].filter((c): c is string => c !== null);
      if (contacts.length === 0) return;
      await trx
        .updateTable('invitations')
        .set({ state: 'cancelled' })
        .where('channel', 'in', ['mobile', 'email'])
        .where('contact', 'in', contacts)
        .where('state', '=', 'pending')
        .execute();
      await trx
        .updateTable('invitations')
        .set({ contact: null })
        .where('channel', 'in', ['mobile', 'email'])
        .where('contact', 'in', contacts)
        .execute();
    },
  });
}
