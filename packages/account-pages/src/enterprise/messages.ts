import { defineMessages } from '../i18n/define';

/** The texts of enterprise single sign-on: the sign-in page's work e-mail and the callback page. */
export const { useTranslate: useEnterpriseT } = defineMessages(
  {
    'sso.open': '使用工作邮箱登录',
    'sso.section': '企业单点登录',
    'sso.email': '工作邮箱',
    'sso.hint': '如果你的组织已开通单点登录，将转到组织的登录页面。',
    'sso.needEmail': '请输入有效的邮箱地址',
    'sso.continue': '继续',
    'sso.working': '正在完成单点登录…',
    'sso.failed': '单点登录没有完成',
    'sso.retry': '返回登录',
    'sso.cancelled': '你在组织的登录页面取消了登录，没有登录任何账号。',
    'sso.refused': '组织的登录页面没有完成这次登录。请返回登录后再试一次，或联系组织的管理员。',
  },
  {
    'sso.open': 'Sign in with your work e-mail',
    'sso.section': 'Enterprise single sign-on',
    'sso.email': 'Work e-mail',
    'sso.hint': 'If your organisation has single sign-on, you will go to its sign-in page.',
    'sso.needEmail': 'Enter a valid e-mail address',
    'sso.continue': 'Continue',
    'sso.working': 'Finishing single sign-on…',
    'sso.failed': 'Single sign-on did not finish',
    'sso.retry': 'Back to sign-in',
    'sso.cancelled': 'You cancelled on your organisation’s sign-in page; you are not signed in.',
    'sso.refused':
      'Your organisation’s sign-in page did not complete this sign-in. Go back to sign-in and try again, or ask your organisation’s administrator.',
  },
);

/** Where the sign-in page keeps its query (`next`, `service`) while the browser is at the provider. */
export const SEARCH_KEY = 'portico.enterpriseSso.search';
