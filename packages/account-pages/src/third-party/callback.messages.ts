import { defineMessages } from '../i18n/define';
import { hanSeamsTranslator } from './han-seams';

/**
 * What a callback page says when the provider sent the person back without a sign-in: apart from the
 * other third-party texts, which the sign-in page loads, so that only the callback's chunk carries them.
 */
const { table } = defineMessages(
  {
    'tp.cancelled': '你在 {provider} 取消了登录，没有登录任何账号。',
    'tp.refused': '{provider} 没有完成这次登录。请返回登录后再试一次。',
    'tp.noResult': '{provider} 没有带回登录结果。请返回登录后再试一次。',
  },
  {
    'tp.cancelled': 'You cancelled at {provider}; you are not signed in.',
    'tp.refused': '{provider} did not complete this sign-in. Go back to sign-in and try again.',
    'tp.noResult': '{provider} did not send back a sign-in result. Go back to sign-in and try again.',
  },
);

export const useCallbackT = hanSeamsTranslator(table);
