import type { ChallengeCaptcha } from '@portico/account-sdk';
import type { LanguageStore } from '../i18n/language-store';
import { monitoringCaptchaHooks } from './monitoring';

/**
 * The challenge, loaded on first need: most visits never meet one, so @portico/captcha-loader stays
 * out of the first load (the /login budget). The loader itself fetches /vc/setting and the challenge
 * script from the same origin. A failed import is forgotten, so the next challenge tries again.
 */
export function lazyCaptcha({
  aid,
  languageStore,
}: {
  aid: number;
  languageStore: LanguageStore;
}): ChallengeCaptcha {
  let loader: Promise<ChallengeCaptcha> | undefined;
  return {
    show(decision, options) {
      loader ??= import('@portico/captcha-loader').then(({ createCaptchaLoader }) =>
        createCaptchaLoader({ aid, language: languageStore.get(), ...monitoringCaptchaHooks }),
      );
      loader.catch(() => {
        loader = undefined;
      });
      return loader.then((captcha) => captcha.show(decision, options));
    },
  };
}
