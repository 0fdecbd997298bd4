import fp from 'fastify-plugin';
import { noticeMail, noticeSms } from '../../delivery/templates';
import { type SecretSealer, secretSealer } from '../../domain/webhooks/secrets';
import { createWebhookWorker, type WebhookWorker } from '../../domain/webhooks/worker';
import { webhooksConsumer } from '../../events/consumers/webhooks';
import { knownLanguage } from '../../lib/language';

export interface Webhooks {
  worker: WebhookWorker;
  /** Seals and opens endpoints' signing secrets (a key derived from SECRET). */
  sealer: SecretSealer;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

/**
 * Webhooks (docs/webhooks.md): the outbox's consumer that queues each event's deliveries, and the
 * worker that sends them and deletes the finished ones past their retention, started with the server
 * and stopped before the database closes.
 */
export default fp(
  async (app) => {
    const { limits } = app.runtime;
    const sealer = secretSealer(app.secret);
    const worker = createWebhookWorker(app.db, {
      now: () => app.runtime.now(),
      pollMs: limits.webhookPollMs,
      retryBaseMs: limits.webhookRetryBaseMs,
      retryMaxMs: limits.webhookRetryMaxMs,
      retryWindowMs: app.config.webhooks.retryHours * 3_600_000,
      retentionMs: app.config.webhooks.deliveryRetentionDays * 86_400_000,
      timeoutMs: limits.webhookTimeoutMs,
      maxResponseBytes: limits.webhookResponseBytes,
      leaseMs: limits.webhookLeaseMs,
      concurrency: limits.webhookConcurrency,
      privateTargets: app.config.webhooks.privateTargets,
      sealer,
      // Every operator hears of it on their own verified channels, in the notice's fixed wording.
      async onDisabled(endpoint) {
        app.log.warn({ endpoint: endpoint.id }, 'a webhook endpoint was disabled after failing');
        if (app.config.operators.length === 0) return;
        const operators = await app.db
          .selectFrom('users')
          .select(['mobile', 'email', 'language'])
          .where('id', 'in', app.config.operators)
          .execute();
        for (const operator of operators) {
          const [channel, to] = operator.email
            ? (['email', operator.email] as const)
            : (['mobile', operator.mobile] as const);
          if (!to) continue;
          // No request to take a language from: the operator's saved one (docs/web.md), else zh.
          const language = knownLanguage(operator.language) ?? 'zh';
          try {
            const admission = await app.gate.admitNotice({ channel, to });
            await app.gate.deliver(
              admission,
              channel === 'email'
                ? {
                    channel: 'email',
                    message: noticeMail(to, 'webhook_disabled', app.config.appName, language),
                  }
                : {
                    channel: 'sms',
                    message: noticeSms(to, 'webhook_disabled', app.config.appName, language),
                  },
            );
          } catch (error) {
            app.log.warn({ err: error }, 'a webhook notice was not sent');
          }
        }
      },
      onError: (error) => app.log.warn({ err: error }, 'webhook delivery failed'),
    });
    app.events.dispatcher.register(webhooksConsumer(() => worker.wake()));
    app.decorate('webhooks', { worker, sealer });
    // Finished deliveries past their retention go, as the audit log's old entries do.
    const sweeper = setInterval(() => {
      worker.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'webhook delivery sweep failed'));
    }, limits.sweepIntervalMs);
    sweeper.unref();
    app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await worker.stop();
    });
  },
  { name: 'webhooks', dependencies: ['db', 'events', 'delivery'] },
);
