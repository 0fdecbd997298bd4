import type { AccountInfo } from '@portico/account-react';
import type { AccountClient } from '@portico/account-sdk';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Language } from '../i18n/define';
import type { LanguageStore } from '../i18n/language-store';

/** A sign-in method of the sign-in panel, one tab each. */
export type SignInMethod = 'sms' | 'email' | 'password' | 'qr';

/** What the copy of a screen may depend on: the UI language and the page's query (`service`, say). */
export interface CopyContext {
  language: Language;
  search: URLSearchParams;
}

/**
 * A piece of copy: a node, or a component of the context (it may use hooks, e.g. to load the name of
 * the service the person signs in to).
 */
export type Copy = ReactNode | ((context: CopyContext) => ReactNode);

export interface ScreenCopy {
  /** The card's heading (the page's `<h1>`). Default: the package's generic text ("登录", "Sign in", …). */
  title?: Copy;
  /** The line under the heading. Default: the package's generic text. */
  subtitle?: Copy;
}

/**
 * Where the browser goes: a path of the app's router (navigated to in place; a router `basename`
 * applies), or `{ document: url }` for a full page load of a URL resolved against the page, not the
 * router (a server endpoint, such as the sso app's `/sso/login?service=…` that hands out a ticket).
 */
export type AuthDestination = string | { document: string };

export interface AfterSignInContext {
  /** The signed-in account: the sign-in's answer, or the session of a signed-in visit. */
  account: AccountInfo;
  /** The query of the screen the person signed in on (`next`, `service`, …). */
  search: URLSearchParams;
}

export interface AuthRoutesOptions {
  /** The app's account client (`createAccountClient`); the loaders read the session with it. */
  client: AccountClient;
  /** The QueryClient handed to `<AccountProvider>`: loaders and hooks share its session entry. */
  queryClient: QueryClient;
  /**
   * Prefix of the screens' paths inside the router, e.g. '/account'. Default '' (the screens are at
   * `/login`, `/sign-up`, `/reset-password`). A router `basename` (say '/sso') applies on top.
   */
  basePath?: string;
  /**
   * Which sign-in methods the panel offers, in this order. Default ['sms', 'email', 'password', 'qr']
   * ('qr': scan with a signed-in phone, docs/qr-login.md; its tab is loaded when first opened).
   */
  methods?: readonly SignInMethod[];
  /**
   * Third-party sign-in (GitHub, Google, WeChat): the sign-in page shows a button for each provider the
   * passport has configured, and the callback pages are mounted at the root of the router
   * (`github-oauth-callback`, `google-oauth-callback`, `wechat-oauth-callback`,
   * `github-oauth-twice-redirect`), where the
   * passport sends the provider back to. Default false.
   */
  thirdParty?: boolean;
  /**
   * Passkeys (docs/factors.md): the sign-in page shows "Sign in with a passkey" under the panel and
   * offers the browser's passkeys in the identifier field's autofill (loaded after the page, in
   * browsers with WebAuthn). Default false.
   */
  passkeys?: boolean;
  /**
   * Enterprise single sign-on (docs/enterprise-sso.md): the sign-in page offers "Sign in with your work
   * e-mail", which goes to the identity provider of the organisation that verified the address's
   * domain, and `/enterprise-sso-callback` is mounted at the root of the router, where the provider
   * sends the browser back to. Default false.
   */
  enterpriseSso?: boolean;
  /**
   * Mount open authorization's consent page at `/authorization` (the passport's OAuth provider sends
   * people to `/authorization?interaction=…`; docs/open-authorization.md). Default false.
   */
  authorization?: boolean;
  /**
   * Mount the sign-up and reset screens (and link to them). Default true for both. `joinWaitlist`
   * mounts the waitlist page at `join-waitlist` (the passport's WAITLIST, docs/monitoring.md); a
   * sign-up the passport refuses with WAITLIST_REQUIRED goes there. Default false.
   */
  screens?: { signUp?: boolean; resetPassword?: boolean; joinWaitlist?: boolean };
  /**
   * Where the browser goes after a sign-in or registration, and on a visit to login or sign-up while
   * signed in. Default: a safe `next` from the query (never back to a signed-out screen), else
   * `defaultNext`.
   */
  afterSignIn?: (context: AfterSignInContext) => AuthDestination;
  /** Where the default `afterSignIn` goes without a usable `next`. Default '/'. */
  defaultNext?: string;
  /** Query parameters the screens carry along when they link to each other. Default ['next']. */
  keepParams?: readonly string[];
  /** The app's copy for each screen. */
  copy?: { login?: ScreenCopy; signUp?: ScreenCopy; resetPassword?: ScreenCopy };
  /**
   * Links of the legal documents the sign-in line and the sign-up checkbox name: router paths, or
   * absolute URLs for documents another app serves. Default `false`: no line, no checkbox.
   */
  legal?: { terms: string; privacy: string } | false;
  /** The "back to home" link under the card. Default '/'; `false`: none. */
  home?: string | false;
  /** The app's brand, at the top left of the auth pages. */
  brand?: ReactNode;
  /** The app's language store: the auth pages show a switch for it. Absent: no switch. */
  languageStore?: LanguageStore;
}

/** The options with every default filled in, as the screens read them. */
export interface AuthConfig
  extends Required<
    Pick<AuthRoutesOptions, 'client' | 'queryClient' | 'methods' | 'keepParams' | 'copy' | 'legal' | 'home'>
  > {
  paths: { login: string; signUp: string | null; resetPassword: string | null };
  afterSignIn: (context: AfterSignInContext) => AuthDestination;
  brand: ReactNode;
  languageStore: LanguageStore | undefined;
}
