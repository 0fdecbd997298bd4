import { type CopyContext, defineMessages } from '@portico/account-pages';

/** The app flavour's own copy, in zh and en. */
export const { translate, useTranslate } = defineMessages(
  {
    'home.title': '扫码登录',
    'home.body': '用手机扫描电脑上的二维码即可登录电脑。',
    'home.scan': '扫一扫',
    'home.noScanner': '请使用 Portico 应用扫描，或用手机相机扫描后在浏览器中打开。',
    'home.signIn': '登录',
    'login.title': '登录 Portico',
    'login.subtitle': '登录后返回应用',
    'success.title': '登录成功',
    'success.body': '正在返回…',
    'success.continue': '继续',
    'success.service': '即将返回 {service}',
    'scan.notOurs': '这不是 Portico 的登录二维码',
    'notFound.title': '页面不存在',
    'notFound.body': '请回到应用重新打开。',
    'error.title': '出错了',
    'error.body': '页面没有加载成功，请刷新重试。',
  },
  {
    'home.title': 'Scan to sign in',
    'home.body': 'Scan the QR code on a computer with this phone to sign the computer in.',
    'home.scan': 'Scan',
    'home.noScanner':
      'Scan with the Portico app, or with the phone’s camera and open the link in the browser.',
    'home.signIn': 'Sign in',
    'login.title': 'Sign in to Portico',
    'login.subtitle': 'Then go back to the app',
    'success.title': 'Signed in',
    'success.body': 'Going back…',
    'success.continue': 'Continue',
    'success.service': 'Going back to {service}',
    'scan.notOurs': 'This is not a Portico sign-in QR code',
    'notFound.title': 'Page not found',
    'notFound.body': 'Go back to the app and open it again.',
    'error.title': 'Something went wrong',
    'error.body': 'The page did not load; reload to try again.',
  },
);

export const authCopy = {
  login: {
    title: ({ language }: CopyContext) => translate(language, 'login.title'),
    subtitle: ({ language }: CopyContext) => translate(language, 'login.subtitle'),
  },
};
