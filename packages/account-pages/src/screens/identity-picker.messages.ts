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
  },
);
