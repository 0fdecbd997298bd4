import { defineMessages } from '../i18n/define';

/** The account centre's recent changes to sign-in methods and "this wasn't me". */
export const { useTranslate: useSignInChangesT } = defineMessages(
  {
    'changes.title': '登录方式的近期变更',
    'changes.intro': '最近 30 天里，你的账号添加、更换或移除的登录方式。',
    'changes.notice': '你的账号最近有 {count} 项登录方式变更。如果不是你本人操作，请点击“不是我”。',
    'changes.none': '最近 30 天没有登录方式变更。',
    'changes.when': '时间',
    'changes.what': '变更',
    'changes.from': '来自',
    'changes.action': '操作',
    'changes.notMe': '不是我',
    'changes.notMeLabel': '不是我：{what}',
    'changes.disowned': '已确认不是本人',
    'changes.confirmTitle': '这项变更不是你本人操作？',
    'changes.confirmBody':
      '这项变更添加的通行密钥、第三方账号或身份验证器将被移除，你授权过的应用将失去访问权限；你的账号将在所有设备上退出登录（包括这台设备），所有记住的设备都需要重新验证。之后请用你自己的手机号或邮箱重置密码，并检查登录方式。',
    'changes.confirm': '退出所有登录',
    'changes.secureTitle': '已在所有设备上退出登录',
    'changes.secureBody': '接下来请保护你的账号：',
    'changes.stepReset': '用你自己的手机号或邮箱重置密码',
    'changes.stepReview': '重新登录，在账号安全页面检查并移除不认识的登录方式',
    'changes.reset': '重置密码',
    'changes.signIn': '重新登录',
    'changes.failed': '操作失败：{message}',
  },
  {
    'changes.title': 'Recent changes to how you sign in',
    'changes.intro': 'Sign-in methods added, replaced or removed on your account in the last 30 days.',
    'changes.notice':
      'Your account has {count} recent change(s) to how you sign in. If one was not you, choose “This wasn’t me”.',
    'changes.none': 'No changes to how you sign in in the last 30 days.',
    'changes.when': 'Time',
    'changes.what': 'Change',
    'changes.from': 'From',
    'changes.action': 'Action',
    'changes.notMe': 'This wasn’t me',
    'changes.notMeLabel': 'This wasn’t me: {what}',
    'changes.disowned': 'Marked as not you',
    'changes.confirmTitle': 'Was this change not made by you?',
    'changes.confirmBody':
      'The passkey, third-party account or authenticator app this change added will be removed, and the apps you authorised will lose access. Your account will be signed out everywhere, this device included, and every remembered device will have to verify again. Then reset your password with your own mobile number or e-mail address, and check your sign-in methods.',
    'changes.confirm': 'Sign out everywhere',
    'changes.secureTitle': 'Signed out everywhere',
    'changes.secureBody': 'Now secure your account:',
    'changes.stepReset': 'Reset your password with your own mobile number or e-mail address',
    'changes.stepReview':
      'Sign in again, then check your sign-in methods on the security page and remove any you do not know',
    'changes.reset': 'Reset password',
    'changes.signIn': 'Sign in again',
    'changes.failed': 'That did not work: {message}',
  },
);
