/** The UI languages of this package; the passport's `language` default is zh. */
export type AccountLanguage = 'zh' | 'en';

/**
 * The package's own UI strings. `{name}` placeholders are filled by `t(key, { name })`. Error texts are not
 * here: they come from the protocol's error catalogue by code (see `errorText`).
 */
const zh = {
  'mobile.label': '手机号',
  'mobile.country': '国家或地区区号',
  'mobile.search': '搜索国家或地区',
  'email.label': '邮箱',
  'password.label': '密码',
  'password.show': '显示密码',
  'code.label': '验证码',
  'code.send': '获取验证码',
  'code.resend': '重新发送',
  'code.sending': '发送中…',
  'code.cooldown': '{seconds} 秒后可重发',
  'code.cooldownMinutes': '{minutes} 分钟后可重发',
  'code.sent': '验证码已发送',
  'code.incomplete': '请输入 {length} 位验证码',
  'submit.pending': '请稍候…',
  'secondVerify.title': '身份验证',
  'secondVerify.intro': '你正在新设备上登录。我们会向 {mobile} 发送短信验证码，输入后即可完成登录。',
  'secondVerify.introNoMobile':
    '你正在新设备上登录。我们会向账号绑定的手机号发送短信验证码，输入后即可完成登录。',
  'secondVerify.submit': '验证并登录',
  'secondVerify.close': '关闭',
  'secondVerify.loading': '正在加载验证…',
  'error.network': '网络连接失败，请检查网络后重试',
  'error.timeout': '请求超时，请稍后重试',
  'error.unknown': '出了点问题，请稍后重试',
} as const;

export type AccountTextKey = keyof typeof zh;

const en: Record<AccountTextKey, string> = {
  'mobile.label': 'Mobile number',
  'mobile.country': 'Country or region code',
  'mobile.search': 'Search country or region',
  'email.label': 'E-mail',
  'password.label': 'Password',
  'password.show': 'Show password',
  'code.label': 'Verification code',
  'code.send': 'Send code',
  'code.resend': 'Resend code',
  'code.sending': 'Sending…',
  'code.cooldown': 'Resend in {seconds} s',
  'code.cooldownMinutes': 'Resend in {minutes} min',
  'code.sent': 'Code sent',
  'code.incomplete': 'Enter the {length}-digit code',
  'submit.pending': 'Please wait…',
  'secondVerify.title': 'Verify it’s you',
  'secondVerify.intro':
    'You are signing in on a new device. We will text a code to {mobile}; enter it to finish signing in.',
  'secondVerify.introNoMobile':
    'You are signing in on a new device. We will text a code to the mobile number on your account; enter it to finish signing in.',
  'secondVerify.submit': 'Verify and sign in',
  'secondVerify.close': 'Close',
  'secondVerify.loading': 'Loading verification…',
  'error.network': 'Could not reach the server; check your connection and try again',
  'error.timeout': 'The server took too long to answer; try again',
  'error.unknown': 'Something went wrong; try again later',
};

/** Every UI string of the package, by language. */
export const accountMessages: Readonly<Record<AccountLanguage, Readonly<Record<AccountTextKey, string>>>> = {
  zh,
  en,
};

/** Looks up a UI string and fills its `{placeholders}`. */
export function accountText(
  language: AccountLanguage,
  key: AccountTextKey,
  values?: Record<string, string | number>,
): string {
  const text = accountMessages[language][key];
  return values ? text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole)) : text;
}

/** 'en' for any English tag ('en', 'en-GB'); zh otherwise, the passport's default. */
export function toAccountLanguage(language: string | undefined): AccountLanguage {
  return language?.toLowerCase().startsWith('en') ? 'en' : 'zh';
}
