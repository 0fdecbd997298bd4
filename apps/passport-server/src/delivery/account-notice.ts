import type { FastifyInstance } from 'fastify';
import { type Language, type NoticeAbout, noticeMail, noticeSms } from './templates';

/** A security notice to one of an account's own verified channels. */
export interface AccountNotice {
  kind: NoticeAbout;
  channel: 'mobile' | 'email';
  /** The account's own mobile or e-mail, as stored. */
  to: string;
}

/**
 * Sends a notice to the account's own channel through the gate's account-notice count, in its fixed
 * template. A notice refused (past that count) or undelivered is logged, never thrown: the change it
 * tells of stands either way.
 */
export async function sendAccountNotice(
  app: FastifyInstance,
  notice: AccountNotice,
  language: Language,
): Promise<void> {
  const { appName } = app.config;
  try {
    const admission = await app.gate.admitAccountNotice({ channel: notice.channel, to: notice.to });
    await app.gate.deliver(
      admission,
      notice.channel === 'mobile'
        ? { channel: 'sms', message: noticeSms(notice.to, notice.kind, appName, language) }
        : { channel: 'email', message: noticeMail(notice.to, notice.kind, appName, language) },
    );
  } catch (error) {
    const kind = typeof notice.kind === 'string' ? notice.kind : notice.kind.wayIn;
    app.log.warn({ err: error, kind, channel: notice.channel }, 'a notice was not sent');
  }
}
