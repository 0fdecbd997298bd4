import type { CancellationRegistry } from '../cancellation/registry';

/** An erased account keeps no authenticator secret and no recovery code. */
export function addFactorCancelRules(registry: CancellationRegistry): void {
  for (const table of ['totp_factors', 'recovery_codes'] as const)
    registry.addEraser({
      key: table,
      erase: async (trx, userId) => {
        await trx.deleteFrom(table).where('user_id', '=', userId).execute();
      },
    });
}
