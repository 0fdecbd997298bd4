import { defineMessages } from '../i18n/define';
import { hanSeamsTranslator } from './han-seams';
import { providerName } from './providers';

/** The texts of third-party sign-in: the buttons, the callback pages, the choice, linked accounts. */
const { table } = defineMessages(
  {
    'tp.or': '或使用以下账号登录',
    'tp.name.wechat': '微信',
    'tp.continue': '使用 {provider} 登录',
    'tp.working': '正在完成 {provider} 登录…',
    'tp.failed': '{provider} 登录没有完成',
    'tp.retry': '返回登录',
    'tp.choice.title': '关联你的 {provider} 账号',
    'tp.choice.subtitle': '{name}，这个 {provider} 账号还没有关联任何账号。',
    'tp.choice.emailRegistered': '你的 {provider} 邮箱 {email} 已有账号：用它登录即可关联。',
    'tp.choice.emailRegisteredMobile': '该账号绑定的手机号是 {mobile}。',
    'tp.choice.methods': '关联方式',
    'tp.choice.sms': '用短信验证码登录并关联',
    'tp.choice.email': '用邮箱验证码登录并关联',
    'tp.choice.smsHint': '未注册的手机号验证后将创建新账号并关联。',
    'tp.choice.create': '不关联，直接创建新账号',
    'tp.choice.createButton': '用 {provider} 创建新账号',
    'tp.choice.link': '登录并关联',
    'tp.relay.title': '正在转到开发环境…',
    'tp.relay.refused': '这个地址不是本机开发地址，已拒绝转发。',
    'tp.linked.title': '已关联的账号',
    'tp.linked.subtitle': '关联后可以用这些账号一键登录。',
    'tp.linked.none': '还没有配置第三方登录。',
    'tp.linked.connected': '已关联：{name}',
    'tp.linked.notConnected': '未关联',
    'tp.linked.connect': '关联 {provider}',
    'tp.linked.disconnect': '解除关联',
    'tp.linked.switch': '更换账号',
    'tp.linked.lastWayIn': '这是你唯一的登录方式，先绑定手机号、邮箱或其他账号再解除。',
    'tp.linked.done': '已更新关联的账号。',
  },
  {
    'tp.or': 'Or sign in with',
    'tp.name.wechat': 'WeChat',
    'tp.continue': 'Continue with {provider}',
    'tp.working': 'Finishing the {provider} sign-in…',
    'tp.failed': 'The {provider} sign-in did not finish',
    'tp.retry': 'Back to sign-in',
    'tp.choice.title': 'Link your {provider} account',
    'tp.choice.subtitle': '{name}, this {provider} account is not linked to an account yet.',
    'tp.choice.emailRegistered': 'Your {provider} e-mail {email} has an account: sign in to it to link.',
    'tp.choice.emailRegisteredMobile': 'That account’s mobile number is {mobile}.',
    'tp.choice.methods': 'Ways to link',
    'tp.choice.sms': 'Sign in by SMS code and link',
    'tp.choice.email': 'Sign in by e-mail code and link',
    'tp.choice.smsHint': 'A number without an account gets a new account, linked.',
    'tp.choice.create': 'Or create a new account without linking',
    'tp.choice.createButton': 'Create an account with {provider}',
    'tp.choice.link': 'Sign in and link',
    'tp.relay.title': 'Forwarding to the development app…',
    'tp.relay.refused': 'This is not a development address on this machine; not forwarded.',
    'tp.linked.title': 'Linked accounts',
    'tp.linked.subtitle': 'Sign in with one click with the accounts you link.',
    'tp.linked.none': 'No third-party sign-in is configured.',
    'tp.linked.connected': 'Linked: {name}',
    'tp.linked.notConnected': 'Not linked',
    'tp.linked.connect': 'Link {provider}',
    'tp.linked.disconnect': 'Unlink',
    'tp.linked.switch': 'Use another account',
    'tp.linked.lastWayIn':
      'This is your only way in: add a mobile number, an e-mail or another account first.',
    'tp.linked.done': 'Your linked accounts are updated.',
  },
);

/** WeChat's name is 微信 in Chinese: no spaces around it there (`formatWithHanSeams`). */
export const useThirdPartyT = hanSeamsTranslator(table);

export type ThirdPartyT = ReturnType<typeof useThirdPartyT>;

/**
 * A provider's name in the page's language: the brand names GitHub and Google are the same in every
 * language; WeChat is 微信 in Chinese.
 */
export function useProviderName(): (provider: string) => string {
  const t = useThirdPartyT();
  return (provider) => (provider === 'wechat' ? t('tp.name.wechat') : providerName(provider));
}
