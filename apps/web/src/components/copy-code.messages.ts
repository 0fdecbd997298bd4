import { defineMessages } from '@portico/account-pages';

export const { useTranslate: useCopyT } = defineMessages(
  {
    'copy.button': '复制代码',
    'copy.done': '已复制',
    'copy.failed': '复制失败，请手动选择代码',
  },
  {
    'copy.button': 'Copy code',
    'copy.done': 'Copied',
    'copy.failed': 'Copy failed; select the code by hand',
  },
);
