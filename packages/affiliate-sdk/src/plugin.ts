import type { AccountPlugin } from '@portico/account-sdk';
import { isAccountError } from '@portico/account-sdk';
import { organisationErrors, organisationTexts } from './protocol/errors';

/**
 * `client.use(affiliatePlugin())`: organisation failures (16xx) carry a user-facing `description` in
 * the client's language even when a proxy or an older server sent none. Optional: the calls work
 * without it.
 */
export function affiliatePlugin(): AccountPlugin {
  return {
    name: 'affiliate',
    setup(client) {
      const english = client.language.startsWith('en');
      const texts = organisationTexts.texts as Record<string, readonly [string, string]>;
      const names = new Map(
        Object.values(organisationErrors.codes).map((e) => [e.code as number, e.name as string]),
      );
      return {
        beforeError: [
          ({ error }) => {
            if (!isAccountError(error, 'response') || error.description) return error;
            const name = names.get(error.error_code);
            const pair = name ? texts[name] : undefined;
            if (pair) Object.defineProperty(error, 'description', { value: english ? pair[1] : pair[0] });
            return error;
          },
        ],
      };
    },
  };
}
