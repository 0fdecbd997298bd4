import fp from 'fastify-plugin';
import { sweepOpenAuthRecords } from '../../domain/open-auth/adapter';

/**
 * Keeps the database from growing with traffic: expired sessions, codes, tickets and store entries are
 * deleted on a timer, and the dev outbox keeps only its newest messages. Every instance may run it;
 * the deletes are idempotent.
 */
export default fp(
  async (app) => {
    const { db, store, delivery, runtime } = app;
    // Codes and tickets stay a day past expiry so a late guess still reads "expired", not "wrong".
    const grace = 86_400_000;

    async function sweep(): Promise<void> {
      const now = runtime.now();
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('absolute_expires_at', '<=', now)]))
        .execute();
      await db
        .deleteFrom('one_time_codes')
        .where('expires_at', '<=', now - grace)
        .execute();
      await db
        .deleteFrom('verify_tickets')
        .where('expires_at', '<=', now - grace)
        .execute();
      await db
        .deleteFrom('verification_tickets')
        .where('expires_at', '<=', now - grace)
        .execute();
      await sweepOpenAuthRecords(db as never, now);
      await store.sweep();
      await delivery.outbox?.sweep();
    }

    const timer = setInterval(() => {
      sweep().catch((error: unknown) => app.log.warn({ err: error }, 'housekeeping failed'));
    }, runtime.limits.sweepIntervalMs);
    timer.unref();
    app.decorate('sweep', sweep);
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'housekeeping', dependencies: ['db', 'store', 'delivery'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs housekeeping now (tests, and operators through a script). */
    sweep(): Promise<void>;
  }
}
