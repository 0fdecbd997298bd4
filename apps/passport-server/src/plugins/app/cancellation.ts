import fp from 'fastify-plugin';
import { eraseDueAccounts } from '../../domain/cancellation/cancellation';
import { type CancellationRegistry, createCancellationRegistry } from '../../domain/cancellation/registry';
import { addFactorCancelRules } from '../../domain/factors/cancellation';
import { addWebhookCancelRules } from '../../domain/webhooks/cancellation';

declare module 'fastify' {
  interface FastifyInstance {
    /** What blocks a cancellation, what it takes away and what erasure removes; other areas add rows. */
    cancellation: CancellationRegistry;
    /** Erases the accounts whose cooling-off period is over (the housekeeping timer; tests call it). */
    eraseDueAccounts(): Promise<string[]>;
  }
}

/**
 * Account cancellation's registry, and the housekeeping job that erases accounts once their
 * cooling-off period is over. Every instance may run it: each erasure is a conditional update in a
 * transaction, so two instances never erase one account twice.
 */
export default fp(
  async (app) => {
    app.decorate('cancellation', createCancellationRegistry());
    addFactorCancelRules(app.cancellation);
    addWebhookCancelRules(app.cancellation);
    app.decorate('eraseDueAccounts', () => eraseDueAccounts(app));
    const timer = setInterval(() => {
      eraseDueAccounts(app).catch((error: unknown) => app.log.warn({ err: error }, 'erasure failed'));
    }, app.runtime.limits.sweepIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'cancellation', dependencies: ['db'] },
);
