import { defineMessages } from '../i18n/define';

export const { useTranslate: useResetT } = defineMessages(
  {
    'reset.title': '重置密码',
    'reset.subtitle': '验证手机号或邮箱后设置新密码',
    'reset.methods': '验证方式',
    'reset.tab.mobile': '通过手机号',
    'reset.tab.email': '通过邮箱',
    'reset.password': '新密码',
    'reset.submit': '重置密码',
    'reset.done.title': '密码已重置',
    'reset.done.body': '所有设备上的登录都已退出。请用新密码重新登录。',
    'reset.done.signIn': '用新密码登录',
    'reset.remember': '想起密码了？',
  },
  {
    'reset.title': 'Reset your password',
    'reset.subtitle': 'Verify your mobile number or e-mail address, then choose a new password',
    'reset.methods': 'Ways to verify',
    'reset.tab.mobile': 'By mobile',
    'reset.tab.email': 'By e-mail',
    'reset.password': 'New password',
    'reset.submit': 'Reset password',
    'reset.done.title': 'Your password was reset',
    'reset.done.body': 'You were signed out on every device. Sign in again with your new password.',
    'reset.done.signIn': 'Sign in with the new password',
    'reset.remember': 'Remembered it?',
  },
);

export type ResetT = ReturnType<typeof useResetT>;
