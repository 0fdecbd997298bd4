import { defineMessages } from '../i18n/define';

export const { useTranslate: useJoinWaitlistT } = defineMessages(
  {
    'waitlist.title': '加入等候名单',
    'waitlist.subtitle': '目前注册需要邀请。留下手机号或邮箱，轮到您时我们会发送注册链接。',
    'waitlist.required': '注册需要排队：请先加入等候名单，获准后即可注册。',
    'waitlist.methods': '联系方式',
    'waitlist.tab.mobile': '手机号',
    'waitlist.tab.email': '邮箱',
    'waitlist.note': '备注（可选）',
    'waitlist.submit': '加入等候名单',
    'waitlist.joined': '您已在等候名单中，排在第 {position} 位（共 {waiting} 人在等候）。',
    'waitlist.admitted': '您已获准注册：请使用我们发送给您的链接注册。',
    'waitlist.registered': '该账号已注册，请直接登录。',
    'waitlist.off': '当前无需排队，可以直接注册。',
    'waitlist.link': '您的注册邀请有效，现在就可以注册。',
    'waitlist.linkUsed': '该注册链接已使用过。',
    'waitlist.signUp': '去注册',
  },
  {
    'waitlist.title': 'Join the waitlist',
    'waitlist.subtitle':
      'Sign-up is by invitation for now. Leave a mobile number or an e-mail address and we will send you a sign-up link when it is your turn.',
    'waitlist.required':
      'Sign-up is by invitation: join the waitlist first, and sign up once you are admitted.',
    'waitlist.methods': 'How to reach you',
    'waitlist.tab.mobile': 'Mobile',
    'waitlist.tab.email': 'E-mail',
    'waitlist.note': 'Note (optional)',
    'waitlist.submit': 'Join the waitlist',
    'waitlist.joined': 'You are on the waitlist: number {position} of {waiting} waiting.',
    'waitlist.admitted': 'You are admitted: sign up with the link we sent you.',
    'waitlist.registered': 'This account exists already: sign in.',
    'waitlist.off': 'There is no waitlist now: you can sign up.',
    'waitlist.link': 'Your invitation is valid: you can sign up now.',
    'waitlist.linkUsed': 'This sign-up link has been used.',
    'waitlist.signUp': 'Sign up',
  },
);

export type JoinWaitlistT = ReturnType<typeof useJoinWaitlistT>;
