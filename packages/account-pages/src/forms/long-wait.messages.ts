import { defineMessages } from '../i18n/define';

/** The long-wait notice's texts (its own chunk, loaded when a long wait is shown). */
export const { useTranslate: useLongWaitT } = defineMessages(
  {
    'wait.minutes': '{minutes} 分钟',
    'wait.seconds': '{seconds} 秒',
    'wait.long': '{wait}后才能再获取验证码。',
    'wait.busy.mobile': '这个手机号最近被请求了很多验证码。',
    'wait.busy.email': '这个邮箱最近被请求了很多验证码。',
    'wait.instead.password': '你可以改用密码登录。',
    'wait.instead.password+email': '你可以改用密码或邮箱验证码登录。',
    'wait.instead.password+sms': '你可以改用密码或短信验证码登录。',
    'wait.instead.email': '你可以改用邮箱验证码登录。',
    'wait.instead.sms': '你可以改用短信验证码登录。',
    'wait.use.password': '用密码登录',
    'wait.use.email': '用邮箱验证码登录',
    'wait.use.sms': '用短信验证码登录',
  },
  {
    'wait.minutes': '{minutes} minutes',
    'wait.seconds': '{seconds} seconds',
    'wait.long': 'A new code can be sent in {wait}.',
    'wait.busy.mobile': 'This number has been asked for many codes lately.',
    'wait.busy.email': 'This address has been asked for many codes lately.',
    'wait.instead.password': 'You can sign in with your password instead.',
    'wait.instead.password+email': 'You can sign in with your password or an e-mail code instead.',
    'wait.instead.password+sms': 'You can sign in with your password or an SMS code instead.',
    'wait.instead.email': 'You can sign in with an e-mail code instead.',
    'wait.instead.sms': 'You can sign in with an SMS code instead.',
    'wait.use.password': 'Sign in with password',
    'wait.use.email': 'Use an e-mail code',
    'wait.use.sms': 'Use an SMS code',
  },
);
