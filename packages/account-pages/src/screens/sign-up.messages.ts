import { defineMessages } from '../i18n/define';

export const { useTranslate: useSignUpT } = defineMessages(
  {
    'signUp.title': '注册账号',
    'signUp.subtitle': '用手机号或邮箱注册，并设置登录密码',
    'signUp.methods': '注册方式',
    'signUp.tab.mobile': '手机号注册',
    'signUp.tab.email': '邮箱注册',
    'signUp.password': '设置密码',
    'signUp.agree': '我已阅读并同意{terms}和{privacy}',
    'signUp.needAgree': '请先阅读并同意服务条款和隐私政策',
    'signUp.submit': '注册并登录',
    'signUp.haveAccount': '已有账号？',
  },
  {
    'signUp.title': 'Create your account',
    'signUp.subtitle': 'Sign up with a mobile number or an e-mail address and choose a password',
    'signUp.methods': 'Ways to sign up',
    'signUp.tab.mobile': 'Mobile',
    'signUp.tab.email': 'E-mail',
    'signUp.password': 'Choose a password',
    'signUp.agree': 'I have read and agree to the {terms} and the {privacy}',
    'signUp.needAgree': 'Please read and accept the terms of service and the privacy policy',
    'signUp.submit': 'Sign up and sign in',
    'signUp.haveAccount': 'Already have an account?',
  },
);

export type SignUpT = ReturnType<typeof useSignUpT>;
