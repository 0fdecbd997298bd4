import type { MailMessage, SmsMessage } from './providers';

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
