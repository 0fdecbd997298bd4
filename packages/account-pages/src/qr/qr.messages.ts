import { defineMessages } from '../i18n/define';

/** The QR sign-in tab's texts (its own chunk, loaded with the tab). */
export const { useTranslate: useQrT } = defineMessages(
  {
    'qr.loading': '正在获取二维码…',
    'qr.image': '登录二维码',
    'qr.scan': '请使用已登录的手机扫描二维码',
    'qr.expiresIn': '二维码 {seconds} 秒内有效',
    'qr.scanned': '已扫描，请在手机上确认',
    'qr.pick': '请在手机上选择这个数字：',
    'qr.signingIn': '已确认，正在登录…',
    'qr.cancelled': '已在手机上取消登录',
    'qr.expired': '二维码已过期',
    'qr.failed': '二维码登录失败',
    'qr.refresh': '刷新二维码',
    'qr.safety': '只在你自己的设备上确认；手机上显示的位置和浏览器应当与这台电脑一致。',
  },
  {
    'qr.loading': 'Getting a QR code…',
    'qr.image': 'Sign-in QR code',
    'qr.scan': 'Scan the QR code with a phone on which you are signed in',
    'qr.expiresIn': 'The QR code is valid for {seconds} s',
    'qr.scanned': 'Scanned — confirm on your phone',
    'qr.pick': 'On your phone, pick this number:',
    'qr.signingIn': 'Confirmed, signing in…',
    'qr.cancelled': 'The sign-in was cancelled on the phone',
    'qr.expired': 'The QR code has expired',
    'qr.failed': 'QR sign-in failed',
    'qr.refresh': 'Refresh the QR code',
    'qr.safety':
      'Confirm only on your own device; the place and browser the phone shows should match this computer.',
  },
);
