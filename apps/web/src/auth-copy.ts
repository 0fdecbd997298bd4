import { type CopyContext, defineMessages } from '@portico/account-pages';

/** The web app's own copy on the shared auth screens: they name the product. */
const { translate } = defineMessages(
  {
    'login.title': '登录 Portico',
    'signUp.title': '注册 Portico 账号',
  },
  {
    'login.title': 'Sign in to Portico',
    'signUp.title': 'Create your Portico account',
  },
);

export const authCopy = {
  login: { title: ({ language }: CopyContext) => translate(language, 'login.title') },
  signUp: { title: ({ language }: CopyContext) => translate(language, 'signUp.title') },
};
