import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type {
  ChatMessage,
  ChatProvider,
  MailMessage,
  MailProvider,
  SmsMessage,
  SmsProvider,
} from './providers';

export interface OutboxMessage {
  id: string;
  channel: 'sms' | 'email';
  to: string;
  subject: string | null;
  text: string;
  created_at: number;
}

/**
 * The dev outbox: messages are stored in the database and shown at /dev/outbox instead of being sent.
 * Anyone who can reach the server can read them, so it is only on when no real provider is configured.
 */
export class Outbox implements SmsProvider, MailProvider, ChatProvider {
  readonly name = 'dev-outbox';
  /** Only the newest messages are kept: the outbox must not grow with traffic. */
  static readonly keep = 500;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async send(message: SmsMessage | MailMessage | ChatMessage): Promise<void> {
    await this.db
      .insertInto('outbox_messages')
      .values({
        id: randomUUID(),
        channel: 'subject' in message ? 'email' : 'sms',
        recipient: message.to,
        subject: 'subject' in message ? message.subject : null,
        body: message.text,
        created_at: this.now(),
      })
      .execute();
  }

  async list(to: string | undefined, limit = 50): Promise<OutboxMessage[]> {
    let query = this.db
      .selectFrom('outbox_messages')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit);
    if (to !== undefined) query = query.where('recipient', '=', to);
    const rows = await query.execute();
    return rows.map((r) => ({
      id: r.id,
      channel: r.channel,
      to: r.recipient,
      subject: r.subject,
      text: r.body,
      created_at: Number(r.created_at),
    }));
  }

  /** Drops all but the newest `keep` messages. */
  async sweep(): Promise<void> {
    const cutoff = await this.db
      .selectFrom('outbox_messages')
      .select('created_at')
      .orderBy('created_at', 'desc')
      .offset(Outbox.keep)
      .limit(1)
      .executeTakeFirst();
    if (cutoff)
      await this.db.deleteFrom('outbox_messages').where('created_at', '<=', cutoff.created_at).execute();
  }
}
