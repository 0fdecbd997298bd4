import { defineMessages } from './define';

/**
 * Texts shared by the sign-in, sign-up and reset screens and by password fields (an app's account page
 * may reuse them). Titles and subtitles are defaults an app overrides with its own copy.
 */
export const { useTranslate: useAuthT, translate: authText } = defineMessages(
  {
    'auth.back': '返回首页',
    'login.title': '登录',
    'login.subtitle': '选择一种方式登录你的账号',
    'login.methods': '登录方式',
    'login.tab.sms': '短信验证码',
    'login.tab.email': '邮箱验证码',
    'login.tab.password': '密码',
    'login.tab.qr': '扫码登录',
    'login.account': '手机号、邮箱或用户名',
    'login.submit': '登录',
    'login.forgot': '忘记密码？',
    'login.noAccount': '还没有账号？',
    'login.signUp': '立即注册',
    'login.smsHint': '未注册的手机号验证后将自动创建账号。',
    'login.agree': '登录即表示你同意{terms}和{privacy}。',
    'login.needAccount': '请输入手机号、邮箱或用户名',
    'login.needMobile': '请输入手机号',
    'login.needEmail': '请输入邮箱地址',
    'login.needCode': '请输入 6 位验证码',
    'login.needPassword': '请输入密码',
    'password.hint': '至少 8 个字符；常见密码和包含手机号、邮箱的密码不能使用。',
    'auth.signIn': '去登录',
    'password.tooShort': '密码至少 8 个字符',
    'password.mismatch': '两次输入的密码不一致',
    'password.confirm': '再次输入新密码',
    'legal.terms': '服务条款',
    'legal.privacy': '隐私政策',
  },
  {
    'auth.back': 'Back to home',
    'login.title': 'Sign in',
    'login.subtitle': 'Choose how you want to sign in',
    'login.methods': 'Sign-in methods',
    'login.tab.sms': 'SMS code',
    'login.tab.email': 'E-mail code',
    'login.tab.password': 'Password',
    'login.tab.qr': 'QR code',
    'login.account': 'Mobile, e-mail or username',
    'login.submit': 'Sign in',
    'login.forgot': 'Forgot your password?',
    'login.noAccount': 'No account yet?',
    'login.signUp': 'Sign up',
    'login.smsHint': 'A number without an account gets one once the code is verified.',
    'login.agree': 'By signing in you agree to the {terms} and the {privacy}.',
    'login.needAccount': 'Enter your mobile, e-mail or username',
    'login.needMobile': 'Enter your mobile number',
    'login.needEmail': 'Enter your e-mail address',
    'login.needCode': 'Enter the 6-digit code',
    'login.needPassword': 'Enter your password',
    'password.hint':
      'At least 8 characters; common passwords and ones that contain your number or e-mail are refused.',
    'auth.signIn': 'Sign in',
    'password.tooShort': 'Use at least 8 characters',
    'password.mismatch': 'The two passwords do not match',
    'password.confirm': 'Repeat the new password',
    'legal.terms': 'Terms of service',
    'legal.privacy': 'Privacy policy',
  },
);

export type AuthT = ReturnType<typeof useAuthT>;
