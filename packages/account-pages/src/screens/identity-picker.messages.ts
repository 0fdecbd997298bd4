import { defineMessages } from '../i18n/define';

export const { useTranslate: useIdentityPickerT } = defineMessages(
  {
    'identity.title': '当前身份',
    'identity.personal': '个人身份',
    'identity.actingAs': '你正以 {name}（{org}）的身份操作',
    'identity.actingPersonal': '你正以个人身份操作。选择一个组织身份来管理该组织。',
    'identity.list': '我的身份',
    'identity.use': '使用此身份',
    'identity.inUse': '使用中',
    'identity.frozen': '已冻结',
    'identity.manager': '管理员',
    'identity.awaiting': '等待你接受',
    'identity.accept': '接受',
    'identity.decline': '拒绝',
    'identity.decline.title': '拒绝加入 {org}？',
    'identity.decline.body':
      '{org} 的身份提供方为你的账号添加了这个成员身份。拒绝后你不会加入 {org}，这个身份会被移除；你的账号不受影响。',
    'identity.accepted': '你已加入 {org}。',
    'identity.declined': '你已拒绝加入 {org}。',
  },
  {
    'identity.title': 'Current identity',
    'identity.personal': 'Personal identity',
    'identity.actingAs': 'You are acting as {name} ({org})',
    'identity.actingPersonal':
      'You are acting as yourself. Pick an organisation identity to manage that organisation.',
    'identity.list': 'My identities',
    'identity.use': 'Use this identity',
    'identity.inUse': 'In use',
    'identity.frozen': 'Frozen',
    'identity.manager': 'Manager',
    'identity.awaiting': 'Waiting for your acceptance',
    'identity.accept': 'Accept',
    'identity.decline': 'Decline',
    'identity.decline.title': 'Decline joining {org}?',
    'identity.decline.body':
      '{org}’s identity provider added this membership to your account. Declining, you do not join {org} and this identity is removed; your account stays as it is.',
    'identity.accepted': 'You joined {org}.',
    'identity.declined': 'You declined to join {org}.',
  },
);
