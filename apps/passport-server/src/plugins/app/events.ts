import fp from 'fastify-plugin';
import { sendAccountNotice } from '../../delivery/account-notice';
import {
  AUDIT_LOG_CONSUMER,
  auditLogConsumer,
  eraseFromAuditLog,
  sweepAuditLog,
} from '../../events/consumers/audit-log';
import { signInNoticesConsumer } from '../../events/consumers/sign-in-notices';
import { createDispatcher, type Dispatcher } from '../../events/dispatcher';

export interface Events {
  dispatcher: Dispatcher;
  /** Deletes audit entries older than AUDIT_RETENTION_DAYS; answers how many (housekeeping; tests). */
  sweepAuditLog(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    events: Events;
  }
}

/**
 * The events dispatcher, started with the server and stopped before the database closes, and its
 * first consumers: the audit log (retention on the housekeeping interval, and an eraser so that
 * cancellation's erasure reaches the log) and the notices of a new way into an account.
 */
export default fp(
  async (app) => {
    const { limits } = app.runtime;
    const dispatcher = createDispatcher(app.db, {
      pollMs: limits.eventPollMs,
      wakeDelayMs: limits.eventWakeDelayMs,
      leaseMs: limits.eventLeaseMs,
      retryBaseMs: limits.eventRetryBaseMs,
      retryMaxMs: limits.eventRetryMaxMs,
      batchSize: 200,
      onError: (error, consumer) => app.log.warn({ err: error, consumer }, 'event delivery failed'),
    });
    dispatcher.register(auditLogConsumer(app.db));
    app.cancellation.addEraser({ key: AUDIT_LOG_CONSUMER, erase: eraseFromAuditLog });

    const retentionMs = app.config.auditRetentionDays * 86_400_000;
    const events: Events = {
      dispatcher,
      sweepAuditLog: () => sweepAuditLog(app.db, app.runtime.now() - retentionMs),
    };
    app.decorate('events', events);
    const timer = setInterval(() => {
      events
        .sweepAuditLog()
        .catch((error: unknown) => app.log.warn({ err: error }, 'audit log sweep failed'));
    }, limits.sweepIntervalMs);
    timer.unref();

    // The notices are registered last, once every plugin registered its consumers (the webhooks'):
    // consumers run one after another, and these wait on an SMS or e-mail provider, which must not
    // hold back the audit log and the webhooks' queue.
    app.addHook('onReady', async () =>
      dispatcher.register(
        signInNoticesConsumer({
          db: app.db,
          store: app.store,
          now: () => app.runtime.now(),
          send: (notice, language) => sendAccountNotice(app, notice, language),
          log: app.log,
        }),
      ),
    );
    app.addHook('onReady', async () => dispatcher.start());
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await dispatcher.stop();
    });
  },
  { name: 'events', dependencies: ['db', 'store', 'delivery', 'cancellation'] },
);
