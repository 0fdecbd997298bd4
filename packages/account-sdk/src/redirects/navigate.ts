import { logout } from '../calls/login';
import type { AccountClient, CallOptions } from '../client/types';
import {
  type LogoutUrlParams,
  logoutUrl,
  type RedirectTarget,
  type WapLoginParams,
  wapLoginUrl,
} from './urls';

/** The part of `window` navigation needs. */
export interface NavigationWindow {
  location: { assign(url: string): void; replace(url: string): void };
  open(url: string, target?: string): unknown;
}

export interface NavigateOptions {
  /** Default: `globalThis.window`. */
  window?: NavigationWindow;
  /** Replace the current history entry instead of adding one. Default false. */
  replace?: boolean;
  /** Open in a new tab. Default false. */
  newTab?: boolean;
}

/** Sends the browser to `url`; returns it. */
export function navigate(
  url: string,
  { window: win = globalThis.window, replace, newTab }: NavigateOptions = {},
): string {
  if (newTab) win.open(url, '_blank');
  else if (replace) win.location.replace(url);
  else win.location.assign(url);
  return url;
}

/**
 * Logs out. By default the browser navigates to the logout address (which redirects to `next`); with
 * `not_redirect` the session is ended by a request instead and nothing navigates.
 */
export function redirectToLogout(
  client: AccountClient,
  { not_redirect, ...params }: LogoutUrlParams & { not_redirect?: 0 | 1 | boolean } = {},
  options?: NavigateOptions & CallOptions,
): Promise<unknown> {
  return not_redirect
    ? logout(client, { ...params, not_redirect: 1 }, options)
    : Promise.resolve(navigate(logoutUrl(client, params), options));
}

/** Opens the wap login: in a new tab, or in place with `replace`. */
export const openWapLogin = (
  target: RedirectTarget,
  params: WapLoginParams,
  options: NavigateOptions = {},
): string => navigate(wapLoginUrl(target, params), { ...options, newTab: !options.replace });
