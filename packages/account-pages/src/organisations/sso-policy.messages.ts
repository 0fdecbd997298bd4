import { defineMessages } from '../i18n/define';

export const { useTranslate: usePolicyT } = defineMessages(
  {
    'pol.title': '单点登录规则',
    'pol.intro':
      '开启自动加入时，首次通过单点登录进入的人会成为本组织的成员，并按下面的规则获得角色（已有成员的角色不变）。',
    'pol.require': '要求单点登录：邮箱属于已验证域名的成员只能通过单点登录进入本组织',
    'pol.requireHint': '需要先配置单点登录连接；移除连接时会自动取消。',
    'pol.jit': '首次单点登录时自动加入本组织',
    'pol.jitOn': '开启：身份提供方的新用户首次登录时即成为成员，按下面的规则获得角色。',
    'pol.jitOff':
      '关闭：只有已是成员的人（在本控制台邀请的，或由身份提供方通过 SCIM 添加的）能通过单点登录进入，其他人会被拒绝。',
    'pol.defaultRole': '没有规则匹配时的角色',
    'pol.noRole': '不分配角色',
    'pol.rules': '角色规则',
    'pol.rulesHint': '声明（例如 groups）等于某个值或是包含该值的列表时，赋予对应角色；匹配的规则都会生效。',
    'pol.rule': '规则 {n}',
    'pol.claim': '声明名称',
    'pol.value': '值',
    'pol.role': '角色',
    'pol.chooseRole': '请选择角色',
    'pol.addRule': '添加规则',
    'pol.removeRule': '删除规则 {n}',
    'pol.incomplete': '请填写每条规则的声明名称、值和角色，或删除不需要的规则。',
    'pol.save': '保存规则',
    'pol.saved': '单点登录规则已保存。',
  },
  {
    'pol.title': 'Single sign-on rules',
    'pol.intro':
      'With members made at the first single sign-on, a person new to this organisation becomes a member with the roles of the rules below (existing members keep theirs).',
    'pol.require':
      'Require single sign-on: members whose e-mail is in a verified domain enter this organisation only through it',
    'pol.requireHint': 'Needs a single sign-on connection; removing the connection lifts it.',
    'pol.jit': 'Make a member at the first single sign-on',
    'pol.jitOn':
      'On: a person new to this organisation becomes a member at their first single sign-on, with the roles of the rules below.',
    'pol.jitOff':
      'Off: only members (invited in this console, or added by the identity provider over SCIM) sign in through it; anyone else is refused.',
    'pol.defaultRole': 'Role when no rule matches',
    'pol.noRole': 'No role',
    'pol.rules': 'Role rules',
    'pol.rulesHint':
      'A claim (such as groups) equal to the value, or a list holding it, gives the role; every matching rule applies.',
    'pol.rule': 'Rule {n}',
    'pol.claim': 'Claim',
    'pol.value': 'Value',
    'pol.role': 'Role',
    'pol.chooseRole': 'Choose a role',
    'pol.addRule': 'Add a rule',
    'pol.removeRule': 'Delete rule {n}',
    'pol.incomplete': 'Fill in each rule’s claim, value and role, or delete the rules you do not need.',
    'pol.save': 'Save rules',
    'pol.saved': 'The single sign-on rules are saved.',
  },
);
