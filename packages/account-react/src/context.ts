import type { AccountClient } from '@portico/account-sdk';
import { createContext, useContext } from 'react';
import { type AccountLanguage, type AccountTextKey, accountText } from './messages';
import type { SecondVerifyController } from './second-verify/second-verify-controller';

export interface AccountContextValue {
  client: AccountClient;
  language: AccountLanguage;
  /** The region the mobile field selects first ('GB'): the app's `default_region`. */
  defaultRegion?: string;
  /** The controller of the provider's second-verification dialog. */
  dialog: SecondVerifyController;
}

export const AccountContext = /* @__PURE__ */ createContext<AccountContextValue | null>(null);

function useAccountContext(hook: string): AccountContextValue {
  const value = useContext(AccountContext);
  if (!value)
    throw new Error(
      `${hook} must be called inside <AccountProvider client={createAccountClient({ aid })}>; wrap your app (or this part of it) in one`,
    );
  return value;
}

/** The AccountClient handed to the nearest `<AccountProvider>`. */
export function useAccountClient(): AccountClient {
  return useAccountContext('useAccountClient').client;
}

/** The controller of the nearest `<AccountProvider>`'s second-verification dialog. */
export function useDialogController(): SecondVerifyController {
  return useAccountContext('useDialogController').dialog;
}

/** The UI language of the nearest `<AccountProvider>` ('zh' by default). */
export function useAccountLanguage(): AccountLanguage {
  return useAccountContext('useAccountLanguage').language;
}

/** A translate function for the package's own UI strings in the provider's language. */
export type AccountT = (key: AccountTextKey, values?: Record<string, string | number>) => string;

/** The provider's language, or 'zh' outside a provider (form parts also work on their own). */
export function useLanguageOrDefault(): AccountLanguage {
  return useContext(AccountContext)?.language ?? 'zh';
}

/** `t(key, values?)` for the package's UI strings; 'zh' outside a provider so form parts work alone. */
export function useAccountText(): AccountT {
  const language = useLanguageOrDefault();
  return (key, values) => accountText(language, key, values);
}

/** The provider's `defaultRegion` for the mobile field, or undefined (outside a provider too). */
export function useDefaultRegion(): string | undefined {
  return useContext(AccountContext)?.defaultRegion;
}
