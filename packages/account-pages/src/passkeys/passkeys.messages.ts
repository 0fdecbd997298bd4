import { defineMessages } from '../i18n/define';

/** The passkey texts: the sign-in page's button and the account security page's section. */
export const { useTranslate: usePasskeyT } = defineMessages(
  {
    'passkey.or': '或',
    'passkey.signIn': '使用通行密钥登录',
    'passkey.signingIn': '请在设备上确认…',
    'passkey.cancelled': '已取消，未使用通行密钥',
    'passkey.browserFailed': '此浏览器无法使用通行密钥，请换一种方式登录',
    'passkey.title': '通行密钥',
    'passkey.intro': '通行密钥用设备的指纹、面容或锁屏密码登录，无需输入账号和密码，也不会被钓鱼网站骗走。',
    'passkey.none': '还没有通行密钥。',
    'passkey.unsupported': '此浏览器不支持通行密钥。',
    'passkey.add': '添加通行密钥',
    'passkey.name': '名称',
    'passkey.nameHint': '方便你认出它，例如“工作电脑”',
    'passkey.namePlaceholder': '我的电脑',
    'passkey.create': '创建通行密钥',
    'passkey.added': '已添加通行密钥“{name}”。',
    'passkey.list': '你的通行密钥',
    'passkey.synced': '已同步到你的其他设备',
    'passkey.singleDevice': '仅在这台设备上',
    'passkey.createdAt': '添加于 {date}',
    'passkey.lastUsed': '上次使用 {date}',
    'passkey.neverUsed': '尚未使用',
    'passkey.rename': '重命名',
    'passkey.renameLabel': '新名称',
    'passkey.save': '保存',
    'passkey.renamed': '已重命名为“{name}”。',
    'passkey.remove': '删除',
    'passkey.removeTitle': '删除通行密钥“{name}”？',
    'passkey.removeBody': '删除后将无法再用它登录。设备上保存的通行密钥需要在设备的设置中另行删除。',
    'passkey.removed': '已删除通行密钥“{name}”。',
    'passkey.cancel': '取消',
    'passkey.needName': '请输入名称',
  },
  {
    'passkey.or': 'or',
    'passkey.signIn': 'Sign in with a passkey',
    'passkey.signingIn': 'Confirm on your device…',
    'passkey.cancelled': 'Cancelled: no passkey was used',
    'passkey.browserFailed': 'This browser could not use a passkey: sign in another way',
    'passkey.title': 'Passkeys',
    'passkey.intro':
      'A passkey signs you in with your device’s fingerprint, face or screen lock: nothing to type, and nothing a phishing site can take.',
    'passkey.none': 'No passkeys yet.',
    'passkey.unsupported': 'This browser does not support passkeys.',
    'passkey.add': 'Add a passkey',
    'passkey.name': 'Name',
    'passkey.nameHint': 'So you can tell it apart, e.g. “Work laptop”',
    'passkey.namePlaceholder': 'My laptop',
    'passkey.create': 'Create passkey',
    'passkey.added': 'Passkey “{name}” added.',
    'passkey.list': 'Your passkeys',
    'passkey.synced': 'Synced to your other devices',
    'passkey.singleDevice': 'On this device only',
    'passkey.createdAt': 'Added {date}',
    'passkey.lastUsed': 'Last used {date}',
    'passkey.neverUsed': 'Not used yet',
    'passkey.rename': 'Rename',
    'passkey.renameLabel': 'New name',
    'passkey.save': 'Save',
    'passkey.renamed': 'Renamed to “{name}”.',
    'passkey.remove': 'Remove',
    'passkey.removeTitle': 'Remove the passkey “{name}”?',
    'passkey.removeBody':
      'You will no longer be able to sign in with it. The passkey saved on your device is removed in the device’s own settings.',
    'passkey.removed': 'Passkey “{name}” removed.',
    'passkey.cancel': 'Cancel',
    'passkey.needName': 'Enter a name',
  },
);

/** The browser's refusal when the person closed its prompt, or a newer ceremony replaced this one. */
export const isCancelled = (error: unknown) => {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NotAllowedError' || name === 'AbortError';
};

/** An error the browser raised (a `WebAuthnError`, a `DOMException`), not the passport's answer. */
export const isBrowserError = (error: unknown) =>
  error instanceof Error && typeof (error as { error_code?: unknown }).error_code !== 'number';
