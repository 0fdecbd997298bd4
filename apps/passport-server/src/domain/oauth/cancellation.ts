import type { CancellationRegistry } from '../cancellation/registry';

/** Linked GitHub and Google identities are listed as lost on cancellation and erased with the account. */
export function addLinkedIdentityCancelRules(registry: CancellationRegistry): void {
  registry.addLoss({
    key: 'linked_identities',
    count: async ({ db }, user) =>
      Number(
        (
          await db
            .selectFrom('linked_identities')
            .select((eb) => eb.fn.countAll().as('count'))
            .where('user_id', '=', user.id)
            .executeTakeFirstOrThrow()
        ).count,
      ),
  });
  registry.addEraser({
    key: 'linked_identities',
    erase: async (trx, userId) => {
      await trx.deleteFrom('linked_identities').where('user_id', '=', userId).execute();
    },
  });
}
