import fp from 'fastify-plugin';
import { createGate } from '../../delivery/gate';
import { Outbox } from '../../delivery/outbox';
import {
  type ChatProvider,
  type MailProvider,
  type SmsProvider,
  UnconfiguredProvider,
} from '../../delivery/providers';
import { SmtpMailProvider } from '../../delivery/smtp';
import { WebhookChatProvider, WebhookSmsProvider } from '../../delivery/webhook';

/** The providers: only the outbound gate (app.gate, src/delivery/gate.ts) sends through them. */
export interface Delivery {
  sms: SmsProvider;
  mail: MailProvider;
  /** Workplace-chat invitations (CHAT_WEBHOOK_URL), else the dev outbox when it is on. */
  chat: ChatProvider;
  /** The dev outbox when it is in use; its routes exist only then. */
  outbox: Outbox | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    delivery: Delivery;
  }
}

/**
 * SMS and e-mail providers. With DEV_OUTBOX=auto (the default) the outbox takes both channels when no
 * real provider is configured at all; once SMTP_URL or SMS_WEBHOOK_URL is set, a channel without a
 * provider fails instead of silently landing in a page anyone can read.
 */
export default fp(
  async (app) => {
    const { config, runtime } = app;
    const real = Boolean(config.smtpUrl || config.smsWebhookUrl);
    const useOutbox = config.devOutbox === 'on' || (config.devOutbox === 'auto' && !real);
    const outbox = useOutbox ? new Outbox(app.db, runtime.now) : null;
    const fallback = (name: string) => outbox ?? new UnconfiguredProvider(name);

    let mail: MailProvider = runtime.mail ?? fallback('mail');
    if (!runtime.mail && config.smtpUrl) {
      const smtp = new SmtpMailProvider(config.smtpUrl, config.smtpFrom);
      app.addHook('onClose', async () => smtp.close());
      mail = smtp;
    }
    const sms: SmsProvider =
      runtime.sms ??
      (config.smsWebhookUrl
        ? new WebhookSmsProvider(config.smsWebhookUrl, config.smsWebhookToken, runtime.fetch)
        : fallback('sms'));

    const chat: ChatProvider = config.chatWebhookUrl
      ? new WebhookChatProvider(config.chatWebhookUrl, config.chatWebhookToken, runtime.fetch)
      : fallback('chat');

    if (outbox) app.log.warn('the dev outbox is on: codes are readable by anyone at /dev/outbox');
    app.decorate('delivery', { sms, mail, chat, outbox });
    app.decorate('gate', createGate(app));
  },
  { name: 'delivery', dependencies: ['db', 'store'] },
);
