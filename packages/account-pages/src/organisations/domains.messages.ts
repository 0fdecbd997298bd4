import { defineMessages } from '../i18n/define';

export const { useTranslate: useDomainT } = defineMessages(
  {
    'dom.title': '企业域名',
    'dom.intro': '验证你的组织拥有的邮箱域名：在域名的 DNS 中添加下面的 TXT 记录，然后点击“验证”。',
    'dom.domain': '域名（例如 example.com）',
    'dom.add': '添加域名',
    'dom.added': '已添加 {domain}。请添加 TXT 记录后验证。',
    'dom.none': '还没有添加域名。',
    'dom.verified': '已验证',
    'dom.pending': '待验证',
    'dom.recordName': '记录名称',
    'dom.recordValue': '记录值',
    'dom.verify': '验证',
    'dom.verifiedNow': '{domain} 已验证。',
    'dom.remove': '移除',
    'dom.remove.label': '移除 {domain}',
    'dom.remove.title': '移除域名 {domain}？',
    'dom.remove.body': '移除后该域名不再属于本组织；要再使用，需要重新添加并验证。',
    'dom.rowActions': '{domain} 的操作',
  },
  {
    'dom.title': 'Company domains',
    'dom.intro':
      'Prove your organisation holds an e-mail domain: add the TXT record below to the domain’s DNS, then choose Verify.',
    'dom.domain': 'Domain (e.g. example.com)',
    'dom.add': 'Add domain',
    'dom.added': '{domain} added. Publish its TXT record, then verify it.',
    'dom.none': 'No domains yet.',
    'dom.verified': 'Verified',
    'dom.pending': 'Not verified',
    'dom.recordName': 'Record name',
    'dom.recordValue': 'Record value',
    'dom.verify': 'Verify',
    'dom.verifiedNow': '{domain} is verified.',
    'dom.remove': 'Remove',
    'dom.remove.label': 'Remove {domain}',
    'dom.remove.title': 'Remove the domain {domain}?',
    'dom.remove.body':
      'It will no longer belong to this organisation; to use it again, add it and verify it again.',
    'dom.rowActions': 'Actions for {domain}',
  },
);
