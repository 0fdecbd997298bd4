/**
 * The third-party providers the screens know, with their brand names (the same in every language but
 * WeChat's, which the screens say as 微信 in Chinese: `useProviderName`). The one list: the callback
 * pages (`<provider>-oauth-callback`) are mounted from it. No imports, so the routes read it without
 * loading the third-party screens.
 */
export const PROVIDER_NAMES: Record<string, string> = {
  github: 'GitHub',
  google: 'Google',
  wechat: 'WeChat',
};
export const providerName = (provider: string) => PROVIDER_NAMES[provider] ?? provider;
