import { defineMessages } from '@portico/account-pages';

/** Texts of the legal documents and the open-source notice. */
export const { useTranslate: useLegalT } = defineMessages(
  {
    'legal.version': '版本 {id}',
    'legal.published': '发布于 {date}',
    'legal.versions': '历史版本',
    'legal.latest': '最新版本',
    'legal.notice.title': '开源许可声明',
    'legal.notice.intro':
      '本页列出此网页应用打包发布的第三方开源软件及其许可证。清单在构建时根据实际打包的代码生成。',
    'legal.notice.package': '软件包',
    'legal.notice.version': '版本',
    'legal.notice.license': '许可证',
    'legal.notice.text': '许可证全文',
    'legal.notice.noText': '该软件包未附带许可证文件，适用其声明的许可证：{license}。',
    'legal.notice.count': '共 {count} 个软件包。',
    'legal.notice.missing': '此构建没有生成许可声明（开发模式下不会生成）。',
  },
  {
    'legal.version': 'Version {id}',
    'legal.published': 'Published {date}',
    'legal.versions': 'Earlier versions',
    'legal.latest': 'Latest version',
    'legal.notice.title': 'Open-source notice',
    'legal.notice.intro':
      'The third-party open-source software this web app ships, and its licences. The list is generated at build time from the code actually bundled.',
    'legal.notice.package': 'Package',
    'legal.notice.version': 'Version',
    'legal.notice.license': 'Licence',
    'legal.notice.text': 'Licence text',
    'legal.notice.noText': 'This package ships no licence file; its declared licence applies: {license}.',
    'legal.notice.count': '{count} packages.',
    'legal.notice.missing': 'This build carries no notice (development builds do not generate one).',
  },
);
