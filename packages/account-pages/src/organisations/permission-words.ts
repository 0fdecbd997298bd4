import { useCallback } from 'react';
import { defineMessages } from '../i18n/define';

/**
 * The access statement's permissions in words (zh and en), so the console never shows a bare
 * `resource:action`. A permission the deployment added to the statement (`extendStatement`) has no
 * words here and shows as its key.
 */
const { useTranslate, table } = defineMessages(
  {
    'subject:read': '查看组织资料',
    'subject:update': '编辑组织资料',
    'member:read': '查看成员',
    'member:create': '添加成员',
    'member:update': '重命名成员',
    'member:freeze': '冻结成员',
    'member:delete': '移除成员',
    'role:read': '查看角色',
    'role:create': '创建角色',
    'role:update': '编辑角色',
    'role:ban': '禁用角色',
    'role:assign': '分配角色',
    'invitation:read': '查看邀请',
    'invitation:create': '发送邀请',
    'invitation:update': '修改邀请',
    'invitation:cancel': '取消邀请',
    'audit:read': '查看审计日志',
    'sso:manage': '管理企业域名与单点登录',
    separator: '、',
  },
  {
    'subject:read': 'See the organisation’s details',
    'subject:update': 'Edit the organisation’s details',
    'member:read': 'See members',
    'member:create': 'Add members',
    'member:update': 'Rename members',
    'member:freeze': 'Freeze members',
    'member:delete': 'Remove members',
    'role:read': 'See roles',
    'role:create': 'Create roles',
    'role:update': 'Edit roles',
    'role:ban': 'Ban roles',
    'role:assign': 'Assign roles',
    'invitation:read': 'See invitations',
    'invitation:create': 'Send invitations',
    'invitation:update': 'Change invitations',
    'invitation:cancel': 'Cancel invitations',
    'audit:read': 'Read the audit log',
    'sso:manage': 'Manage company domains and single sign-on',
    separator: ', ',
  },
);

type Known = keyof typeof table.zh;
const known = (permission: string): permission is Known =>
  permission.includes(':') && Object.hasOwn(table.zh, permission);

/** `word('member:read')` → 查看成员 / See members; `words([...])` joins them; `none` when empty. */
export function usePermissionWords() {
  const t = useTranslate();
  const word = useCallback((permission: string) => (known(permission) ? t(permission) : permission), [t]);
  const words = useCallback(
    (permissions: readonly string[], none: string) => permissions.map(word).join(t('separator')) || none,
    [t, word],
  );
  return { word, words };
}
