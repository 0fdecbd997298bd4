import { type AccountClient, thirdPartyLoginUrl } from '@portico/account-sdk';

/**
 * The failures the screens branch on (`ErrorCode.oauthNotLinked`, `ErrorCode.oauthLastWayIn`), as
 * numbers: the ErrorCode table would be carried by the sign-in page's first load (test/third-party).
 */
export const OAUTH_NOT_LINKED = 1854;
export const OAUTH_LAST_WAY_IN = 1858;

/** What the callback page is to do with the code: sign in (default), link, or switch the link. */
export type ThirdPartyAction = 'login' | 'bind' | 'switch_bind';

interface Intent {
  action: ThirdPartyAction;
  next: string;
}

const KEY = 'portico.third-party';

/**
 * Starts a third-party sign-in (or link) in this tab: remembers what the callback page is to do (tab
 * storage: it never leaves the browser) and navigates to the passport's redirect, which keeps state,
 * PKCE and nonce for this browser.
 */
export function startThirdParty(
  client: AccountClient,
  provider: string,
  { action = 'login', next = '' }: { action?: ThirdPartyAction; next?: string } = {},
): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ action, next } satisfies Intent));
  } catch {}
  window.location.assign(
    thirdPartyLoginUrl(client, { platform_app_id: provider, next: next || '/', action }),
  );
}

/** What the tab started; a sign-in without a `next` (the app's default) when nothing was stored. */
export function readIntent(): Intent {
  try {
    const raw = sessionStorage.getItem(KEY);
    const intent = raw ? (JSON.parse(raw) as Partial<Intent>) : {};
    const action = intent.action === 'bind' || intent.action === 'switch_bind' ? intent.action : 'login';
    return { action, next: typeof intent.next === 'string' ? intent.next : '' };
  } catch {
    return { action: 'login', next: '' };
  }
}

/** The callback used the intent: a later callback in this tab starts from the default again. */
export function clearIntent(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {}
}
