import { type AccountPlugin, accountCall } from '@portico/account-sdk';
import type { LanguageStore } from './language-store';

/**
 * Sends the store's language with every call (`language`, which the passport answers its texts, codes
 * and e-mails in), read at the time of the call: a client is made once, with the language of the
 * page's start, and a switch on the page must reach the passport too.
 */
export function languagePlugin(store: LanguageStore): AccountPlugin {
  return {
    name: 'portico:language',
    setup: () => ({
      beforeRequest: [
        (state) => {
          accountCall(state).config.query.language = store.get();
        },
      ],
    }),
  };
}
