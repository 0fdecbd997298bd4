import type { ChatMessage, MailMessage, SmsMessage } from './providers';

export type Language = 'zh' | 'en';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The one-time code SMS, zh or en. */
export function codeSms(
  to: string,
  code: string,
  minutes: number,
  appName: string,
  language: Language,
): SmsMessage {
  const text =
    language === 'en'
      ? `[${appName}] Your verification code is ${code}. It expires in ${minutes} minutes. Do not share it with anyone.`
      : `【${appName}】您的验证码是 ${code}，${minutes} 分钟内有效。请勿将验证码告诉他人。`;
  return { to, text, template: 'verification_code', params: { code, minutes: String(minutes) }, language };
}

/** The one-time code e-mail, zh or en. */
export function codeMail(
  to: string,
  code: string,
  minutes: number,
  appName: string,
  language: Language,
): MailMessage {
  const subject = language === 'en' ? `Your ${appName} verification code` : `${appName} 验证码`;
  const lines =
    language === 'en'
      ? [
          `Your verification code is ${code}.`,
          `It expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.`,
        ]
      : [`您的验证码是 ${code}。`, `${minutes} 分钟内有效。如果这不是您本人的操作，请忽略本邮件。`];
  const html = `<!doctype html><html><body><p>${lines.map(escapeHtml).join('</p><p>')}</p></body></html>`;
  return { to, subject, text: lines.join('\n'), html, language };
}

/** What every invitation message carries: the organisation, who invited, and the link. */
export interface InvitationText {
  organisation: string;
  inviter: string;
  link: string;
  appName: string;
  language: Language;
}

const invitationLine = ({ organisation, inviter, link, appName, language }: InvitationText) =>
  language === 'en'
    ? `[${appName}] ${inviter} invited you to join ${organisation}. Accept: ${link}`
    : `【${appName}】${inviter} 邀请您加入「${organisation}」。接受邀请：${link}`;

const invitationParams = (t: InvitationText) => ({
  organisation: t.organisation,
  inviter: t.inviter,
  link: t.link,
});

/** The invitation SMS, zh or en. */
export function invitationSms(to: string, t: InvitationText): SmsMessage {
  return {
    to,
    text: invitationLine(t),
    template: 'invitation',
    params: invitationParams(t),
    language: t.language,
  };
}

/** The invitation through the workplace chat webhook, zh or en, with its own template name. */
export function invitationChat(to: string, t: InvitationText): ChatMessage {
  return {
    to,
    text: invitationLine(t),
    template: 'chat_invitation',
    params: invitationParams(t),
    language: t.language,
    link: t.link,
  };
}

/** The invitation e-mail, zh or en. */
export function invitationMail(to: string, t: InvitationText): MailMessage {
  const { organisation, inviter, link, appName, language } = t;
  const subject =
    language === 'en'
      ? `${inviter} invited you to ${organisation} on ${appName}`
      : `${inviter} 邀请您加入「${organisation}」`;
  const lines =
    language === 'en'
      ? [
          `${inviter} invited you to join ${organisation} on ${appName}.`,
          `Open this link to accept: ${link}`,
          'If you did not expect this invitation, ignore this e-mail.',
        ]
      : [
          `${inviter} 邀请您在 ${appName} 加入「${organisation}」。`,
          `打开此链接接受邀请：${link}`,
          '如果您不认识邀请人，请忽略本邮件。',
        ];
  const html = `<!doctype html><html><body><p>${lines
    .map((line) =>
      escapeHtml(line).replace(escapeHtml(link), `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`),
    )
    .join('</p><p>')}</p></body></html>`;
  return { to, subject, text: lines.join('\n'), html, language };
}
