import { defineMessages } from '@portico/account-pages';

/** The workbench page's own copy: its heading and the links to the account centre's other pages. */
export const { useTranslate: useWorkbenchT } = defineMessages(
  {
    'workbench.title': '工作台',
    'workbench.subtitle': '管理你的账号、登录方式与安全设置',
    'workbench.more': '更多',
    'workbench.more.apps': '已授权的应用',
    'workbench.more.developer': '开发者控制台',
    'workbench.more.org': '组织',
    'workbench.more.monitoring': '监控与等候名单（运营人员）',
    'workbench.more.admin': '管理控制台（运营人员）',
    'workbench.editProfile': '编辑个人资料',
    'workbench.manageIdentifiers': '管理手机号、邮箱和用户名',
    'workbench.password.forgot': '忘记当前密码？',
  },
  {
    'workbench.title': 'Workbench',
    'workbench.subtitle': 'Your account, how you sign in, and its security',
    'workbench.more': 'More',
    'workbench.more.apps': 'Apps you authorised',
    'workbench.more.developer': 'Developer console',
    'workbench.more.org': 'Organisations',
    'workbench.more.monitoring': 'Monitoring and the waitlist (operators)',
    'workbench.more.admin': 'Admin console (operators)',
    'workbench.editProfile': 'Edit your profile',
    'workbench.manageIdentifiers': 'Manage mobile, e-mail and username',
    'workbench.password.forgot': 'Forgot your current password?',
  },
);
