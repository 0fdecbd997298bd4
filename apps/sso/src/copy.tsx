import { type CopyContext, defineMessages } from '@portico/account-pages';
import { serviceHost } from './policy';

/** The sso app's own copy: the shared screens name the service the person signs in to. */
export const { translate, useTranslate } = defineMessages(
  {
    'login.title': '登录 Portico 账号',
    'login.service': '登录后继续使用 {service}',
    'signUp.title': '注册 Portico 账号',
    'signUp.service': '注册后继续使用 {service}',
    'notFound.title': '页面不存在',
    'notFound.body': '请回到你要使用的服务，从那里重新登录。',
    'error.title': '出错了',
    'error.body': '页面没有加载成功，请刷新重试。',
  },
  {
    'login.title': 'Sign in with your Portico account',
    'login.service': 'Sign in to continue to {service}',
    'signUp.title': 'Create your Portico account',
    'signUp.service': 'Create an account to continue to {service}',
    'notFound.title': 'Page not found',
    'notFound.body': 'Go back to the service you were using and sign in from there.',
    'error.title': 'Something went wrong',
    'error.body': 'The page did not load; reload to try again.',
  },
);

/** The line under a heading that names the service, or nothing without one. */
const serviceLine =
  (key: 'login.service' | 'signUp.service') =>
  ({ language, search }: CopyContext) => {
    const service = serviceHost(search.get('service'));
    return service ? translate(language, key, { service }) : null;
  };

export const authCopy = {
  login: {
    title: ({ language }: CopyContext) => translate(language, 'login.title'),
    subtitle: serviceLine('login.service'),
  },
  signUp: {
    title: ({ language }: CopyContext) => translate(language, 'signUp.title'),
    subtitle: serviceLine('signUp.service'),
  },
};
