import type { MailMessage, SmsMessage } from '../../delivery/providers';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The admission SMS: the single-use sign-up link, zh or en. */
export function admissionSms(to: string, link: string, appName: string, language: 'zh' | 'en'): SmsMessage {
  const text =
    language === 'en'
      ? `[${appName}] You are off the waitlist. Sign up here (the link works once): ${link}`
      : `【${appName}】您已通过排队，请用此链接注册（仅可使用一次）：${link}`;
  return { to, text, template: 'waitlist_admitted', params: { link }, language };
}

/** The admission e-mail, zh or en. */
export function admissionMail(to: string, link: string, appName: string, language: 'zh' | 'en'): MailMessage {
  const subject = language === 'en' ? `Your ${appName} invitation` : `${appName} 注册邀请`;
  const lines =
    language === 'en'
      ? ['You are off the waitlist.', `Sign up here (the link works once): ${link}`]
      : ['您已通过排队。', `请用此链接注册（仅可使用一次）：${link}`];
  const html = `<!doctype html><html><body><p>${escapeHtml(lines[0] ?? '')}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p></body></html>`;
  return { to, subject, text: lines.join('\n'), html, language };
}
