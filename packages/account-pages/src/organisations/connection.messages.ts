import { defineMessages } from '../i18n/define';

export const { useTranslate: useConnectionT } = defineMessages(
  {
    'con.title': '单点登录（OpenID Connect）',
    'con.intro': '填写你的身份提供方为本应用签发的客户端信息。保存前会先读取签发者的 OpenID 配置。',
    'con.issuer': '签发者地址（Issuer）',
    'con.clientId': '客户端 ID',
    'con.clientSecret': '客户端密钥',
    'con.secretKept': '已保存密钥；留空则保留原密钥。',
    'con.save': '保存连接',
    'con.saved': '连接已保存。',
    'con.remove': '移除连接',
    'con.remove.title': '移除单点登录连接？',
    'con.remove.body': '成员将不能再通过该身份提供方登录；要再使用，需要重新填写客户端信息。',
  },
  {
    'con.title': 'Single sign-on (OpenID Connect)',
    'con.intro':
      'Enter the client your identity provider issued for this app. The issuer’s OpenID configuration is read before saving.',
    'con.issuer': 'Issuer',
    'con.clientId': 'Client ID',
    'con.clientSecret': 'Client secret',
    'con.secretKept': 'A secret is on file; leave this empty to keep it.',
    'con.save': 'Save connection',
    'con.saved': 'The connection is saved.',
    'con.remove': 'Remove connection',
    'con.remove.title': 'Remove the single sign-on connection?',
    'con.remove.body':
      'Members can no longer sign in through this identity provider; to use it again, enter the client again.',
  },
);
