import type { CancellationRegistry } from '../cancellation/registry';

/**
 * An erased account's events leave the webhook delivery log too: its payloads name the person (masked
 * identifiers, a passkey's name, their id) and a redelivery would send them again. Deliveries of the
 * person's own stream and any payload that names their id go, with their attempts; the erasure's own
 * event, recorded after, is delivered as usual.
 */
export function addWebhookCancelRules(registry: CancellationRegistry): void {
  registry.addEraser({
    key: 'webhook_deliveries',
    erase: async (trx, userId) => {
      const about = trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where((eb) => eb.or([eb('stream', '=', `user:${userId}`), eb('payload', 'like', `%"${userId}"%`)]));
      await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', about).execute();
      await trx
        .deleteFrom('webhook_deliveries')
        .where((eb) => eb.or([eb('stream', '=', `user:${userId}`), eb('payload', 'like', `%"${userId}"%`)]))
        .execute();
    },
  });
}
