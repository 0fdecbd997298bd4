import { defineMessages } from '../i18n/define';

export const { useTranslate: useConfirmT } = defineMessages(
  { 'confirm.cancel': '取消' },
  { 'confirm.cancel': 'Cancel' },
);
