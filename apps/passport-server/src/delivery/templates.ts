import type { ProviderName } from '../domain/oauth/providers';
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
  /** The names as their authors wrote them: the templates show them only through `shownName`. */
  organisation: string;
  inviter: string;
  link: string;
  appName: string;
  language: Language;
}

/** The longest name a message shows, in characters; a longer one is cut with an ellipsis. */
export const SHOWN_NAME_MAX = 24;

/** A link, a domain or an e-mail address: `scheme://`, `www.`, `@`, or a dot between a word and letters. */
const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|www\.|@|[\p{L}\p{N}_-][.。｡][a-z]{2,}/iu;
/** A phone number: five digits or more, whatever separators or digit forms sit between them. */
const DIGIT = '[\\p{Nd}〇零一二三四五六七八九]';
const PHONE_LIKE = new RegExp(`${DIGIT}(?:[\\s()./+-]*${DIGIT}){4,}`, 'u');

/**
 * A name another person wrote (an organisation's, an inviter's), as a message may show it, or null to
 * leave it out. A message goes out under the server's name to someone who did not ask for it, so the
 * name may not add lines, reorder the text (bidirectional controls), or carry a link, a domain, an
 * e-mail address or a phone number for the reader to act on; and it is bounded. NFKC first, so
 * full-width digits and dots are judged as the ones they look like.
 */
export function shownName(raw: string): string | null {
  const name = raw
    .normalize('NFKC')
    // Format characters (bidirectional controls, zero-width joiners) go; line breaks become spaces.
    .replace(/\p{Cf}/gu, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ')
    .trim();
  if (name === '' || LINK_LIKE.test(name) || PHONE_LIKE.test(name)) return null;
  const chars = [...name];
  return chars.length <= SHOWN_NAME_MAX ? name : `${chars.slice(0, SHOWN_NAME_MAX - 1).join('')}…`;
}

/** The fixed phrases of an invitation: who invited (or "someone") and to what (or "an organisation"). */
function invitationPhrases({ organisation, inviter, language }: InvitationText) {
  const org = shownName(organisation);
  const who = shownName(inviter);
  return language === 'en'
    ? { who: who ?? 'Someone', org: org ?? 'an organisation' }
    : { who: who ?? '有人', org: org === null ? '一个组织' : `「${org}」` };
}

const invitationLine = (t: InvitationText) => {
  const { who, org } = invitationPhrases(t);
  return t.language === 'en'
    ? `[${t.appName}] ${who} invited you to join ${org}. Accept: ${t.link}`
    : `【${t.appName}】${who} 邀请您加入${org}。接受邀请：${t.link}`;
};

/** The template parameters: the names as shown ('' when left out), never as written. */
const invitationParams = (t: InvitationText) => ({
  organisation: shownName(t.organisation) ?? '',
  inviter: shownName(t.inviter) ?? '',
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
  const { link, appName, language } = t;
  const { who, org } = invitationPhrases(t);
  const subject =
    language === 'en' ? `${who} invited you to ${org} on ${appName}` : `${who} 邀请您加入${org}`;
  const lines =
    language === 'en'
      ? [
          `${who} invited you to join ${org} on ${appName}.`,
          `Open this link to accept: ${link}`,
          'If you did not expect this invitation, ignore this e-mail.',
        ]
      : [
          `${who} 邀请您在 ${appName} 加入${org}。`,
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

/** What a security notice tells the account's owner changed; the wording is fixed per kind. */
export type NoticeKind = 'password_reset' | 'password_changed' | 'webhook_disabled';

const NOTICE_LINES: Record<NoticeKind, Record<Language, { subject: string; lines: string[] }>> = {
  password_reset: {
    en: {
      subject: 'Your password was reset',
      lines: [
        'The password of your account was just reset with a verification code.',
        'Every other session was signed out, and every device will be asked to verify again.',
        'If this was not you, sign in with your mobile number or e-mail address and change your password now.',
      ],
    },
    zh: {
      subject: '您的密码已被重置',
      lines: [
        '您的账号密码刚刚通过验证码被重置。',
        '其他所有登录均已退出，所有设备再次登录时都需要重新验证。',
        '如果这不是您本人的操作，请立即用手机号或邮箱登录并修改密码。',
      ],
    },
  },
  password_changed: {
    en: {
      subject: 'Your password was changed',
      lines: [
        'The password of your account was just changed.',
        'Every other session was signed out, and other devices will be asked to verify again.',
        'If this was not you, sign in with your mobile number or e-mail address and change your password now.',
      ],
    },
    zh: {
      subject: '您的密码已修改',
      lines: [
        '您的账号密码刚刚被修改。',
        '其他所有登录均已退出，其他设备再次登录时都需要重新验证。',
        '如果这不是您本人的操作，请立即用手机号或邮箱登录并修改密码。',
      ],
    },
  },
  webhook_disabled: {
    en: {
      subject: 'A webhook endpoint was disabled',
      lines: [
        'A webhook endpoint failed every delivery for the whole retry period and was disabled.',
        'Its events are kept: once the receiver works again, enable the endpoint and they are delivered.',
        "See the endpoint's delivery log among the operators' webhooks.",
      ],
    },
    zh: {
      subject: 'Webhook 端点已停用',
      lines: [
        '一个 Webhook 端点在整个重试期内投递全部失败，已被自动停用。',
        '其事件均已保留：接收方恢复后，重新启用该端点即可继续投递。',
        '请在运营者的 Webhook 页面查看该端点的投递记录。',
      ],
    },
  },
};

/** The providers a notice of a link names; a link of any other is "a third-party account". */
export const PROVIDERS_NAMED_IN_NOTICES = ['github', 'google'] as const satisfies readonly ProviderName[];

/**
 * A way into the account that was just added or replaced, as its notice names it: each a fixed phrase,
 * a third-party account by its provider's name (our list, never the name the person has there).
 */
export type WayIn =
  | 'mobile'
  | 'email'
  | 'mobile_changed'
  | 'email_changed'
  | 'password'
  | 'username'
  | (typeof PROVIDERS_NAMED_IN_NOTICES)[number]
  | 'third_party'
  | 'authenticator'
  | 'passkey';

const WAY_IN_FIRST_LINE: Record<WayIn, Record<Language, string>> = {
  mobile: {
    en: 'A mobile number was just added to your account: it can now be used to sign in.',
    zh: '您的账号刚刚绑定了手机号，可用于登录。',
  },
  email: {
    en: 'An e-mail address was just added to your account: it can now be used to sign in.',
    zh: '您的账号刚刚绑定了邮箱，可用于登录。',
  },
  mobile_changed: {
    en: 'The mobile number of your account was just replaced by another one.',
    zh: '您账号的手机号刚刚被更换为另一个号码。',
  },
  email_changed: {
    en: 'The e-mail address of your account was just replaced by another one.',
    zh: '您账号的邮箱刚刚被更换为另一个邮箱。',
  },
  password: {
    en: 'A password was just set on your account.',
    zh: '您的账号刚刚设置了密码。',
  },
  username: {
    en: 'A username was just set on your account: with the password, it can now be used to sign in.',
    zh: '您的账号刚刚设置了用户名，可与密码一起用于登录。',
  },
  github: {
    en: 'A GitHub account was just linked to your account: it can now be used to sign in.',
    zh: '您的账号刚刚关联了 GitHub 账号，可用于登录。',
  },
  google: {
    en: 'A Google account was just linked to your account: it can now be used to sign in.',
    zh: '您的账号刚刚关联了 Google 账号，可用于登录。',
  },
  third_party: {
    en: 'A third-party account was just linked to your account: it can now be used to sign in.',
    zh: '您的账号刚刚关联了第三方账号，可用于登录。',
  },
  authenticator: {
    en: 'An authenticator app was just added to your account.',
    zh: '您的账号刚刚添加了身份验证器应用。',
  },
  passkey: {
    en: 'A passkey was just added to your account: it can now be used to sign in.',
    zh: '您的账号刚刚添加了通行密钥，可用于登录。',
  },
};

/** What every notice of a new way in says after its first line: where to say "this wasn't me". */
const WAY_IN_NOTICE: Record<Language, { subject: string; after: string[] }> = {
  en: {
    subject: 'How you sign in changed',
    after: [
      'If this was you, there is nothing to do.',
      'If it was not, sign in with your own mobile number or e-mail address, open Account security, and under “Recent changes to how you sign in” choose “This wasn’t me”.',
    ],
  },
  zh: {
    subject: '您账号的登录方式有变更',
    after: [
      '如果是您本人操作，无需处理。',
      '如果不是，请用您自己的手机号或邮箱登录，打开「账号与安全」，在「登录方式的近期变更」中点击“不是我”。',
    ],
  },
};

/** What a notice is about: one of the fixed kinds, or a way in that was added or replaced. */
export type NoticeAbout = NoticeKind | { wayIn: WayIn };

function noticeText(
  about: NoticeAbout,
  language: Language,
): { subject: string; lines: string[]; template: string; params: Record<string, string> } {
  if (typeof about === 'string') return { ...NOTICE_LINES[about][language], template: about, params: {} };
  const { subject, after } = WAY_IN_NOTICE[language];
  return {
    subject,
    lines: [WAY_IN_FIRST_LINE[about.wayIn][language], ...after],
    template: 'sign_in_method_changed',
    params: { method: about.wayIn },
  };
}

/**
 * A security notice by SMS, zh or en: fixed wording per kind, nobody's free text, no link (a notice
 * that asks the reader to click is what a phishing message looks like).
 */
export function noticeSms(to: string, about: NoticeAbout, appName: string, language: Language): SmsMessage {
  const { lines, template, params } = noticeText(about, language);
  const text = language === 'en' ? `[${appName}] ${lines.join(' ')}` : `【${appName}】${lines.join('')}`;
  return { to, text, template, params, language };
}

/** The same notice by e-mail. */
export function noticeMail(to: string, about: NoticeAbout, appName: string, language: Language): MailMessage {
  const { subject, lines } = noticeText(about, language);
  const html = `<!doctype html><html><body><p>${lines.map(escapeHtml).join('</p><p>')}</p></body></html>`;
  return { to, subject: `${appName}: ${subject}`, text: lines.join('\n'), html, language };
}

/**
 * The no-verify registration's link, zh or en: following it makes the account. Sent to the address
 * whether or not it has an account (the page then says so), so the request tells the sender nothing.
 */
export function registerLinkMail(
  to: string,
  link: string,
  minutes: number,
  appName: string,
  language: Language,
): MailMessage {
  const subject = language === 'en' ? `Finish creating your ${appName} account` : `完成 ${appName} 账号注册`;
  const lines =
    language === 'en'
      ? [
          `Open this link to finish creating your ${appName} account with this address:`,
          link,
          `It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.`,
        ]
      : [
          `打开下面的链接，用这个邮箱完成 ${appName} 账号注册：`,
          link,
          `链接只能使用一次，${minutes} 分钟内有效。如果这不是您本人的操作，请忽略本邮件。`,
        ];
  const [intro, , outro] = lines.map(escapeHtml);
  const href = escapeHtml(link);
  const html = `<!doctype html><html><body><p>${intro}</p><p><a href="${href}">${href}</a></p><p>${outro}</p></body></html>`;
  return { to, subject, text: lines.join('\n'), html, language };
}
