import { createHash } from 'node:crypto';
import { bilingualPage, escapeHtml, type PageLanguage } from '../../http/bilingual-page';
import { preferredLanguage } from '../../lib/language';

/**
 * The pages the provider itself renders (the RP-initiated logout question, the page after a logout
 * with no redirect back, its error page), in zh and en: the request's `ui_locales` first, then the
 * browser's Accept-Language, zh otherwise (lib/language). No script; a style allowed by its hash.
 */

/** What the provider's page sources receive (a Koa context); only what these pages read. */
export interface ProviderPageContext {
  type: string;
  body: string;
  get(header: string): string;
  set(header: string, value: string): void;
  oidc?: {
    params?: Record<string, unknown>;
    client?: { clientName?: string; clientId: string };
  };
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2328}section+section{margin-top:2rem;padding-top:1rem;border-top:1px solid #ddd;color:#57606a}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}button{font:inherit;padding:.6rem 1.2rem;border-radius:.5rem;border:1px solid #8c959f;background:#fff;cursor:pointer}button.primary{background:#1f6feb;border-color:#1f6feb;color:#fff}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}code{word-break:break-all}';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Never framed; a form may post here and be redirected to `redirectTo` (a registered post-logout URI). */
function csp(redirectTo?: string): string {
  let formAction = "'self'";
  try {
    if (redirectTo) formAction += ` ${new URL(redirectTo).origin}`;
  } catch {}
  return [
    "default-src 'none'",
    `style-src ${hashOf(STYLE)}`,
    "img-src 'self' https:",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const languageOf = (ctx: ProviderPageContext): PageLanguage =>
  preferredLanguage(ctx.oidc?.params?.ui_locales, ctx.get('accept-language')) ?? 'zh';

const appName = (ctx: ProviderPageContext) => ctx.oidc?.client?.clientName ?? ctx.oidc?.client?.clientId;

const LOGOUT = {
  zh: {
    title: '退出登录？',
    body: (app?: string) =>
      app ? `「${app}」请求让你退出 Portico 账号。` : '有一个应用请求让你退出 Portico 账号。',
    detail: '退出后，在这个浏览器上需要重新登录。你授权给应用的权限不受影响，可在「已授权的应用」中撤销。',
    yes: '退出登录',
    no: '保持登录',
  },
  en: {
    title: 'Sign out?',
    body: (app?: string) =>
      app
        ? `${app} asks to sign you out of your Portico account.`
        : 'An app asks to sign you out of your Portico account.',
    detail:
      'You will need to sign in again in this browser. What you allowed apps to do stays; revoke it under "Authorised apps".',
    yes: 'Sign out',
    no: 'Stay signed in',
  },
} as const;

/** features.rpInitiatedLogout.logoutSource: the question, with the provider's form (its xsrf field). */
export async function logoutSource(ctx: ProviderPageContext, form: string): Promise<void> {
  const app = appName(ctx);
  ctx.type = 'html';
  ctx.set('content-security-policy', csp(ctx.oidc?.params?.post_logout_redirect_uri as string | undefined));
  ctx.body = bilingualPage({
    first: languageOf(ctx),
    title: (language) => LOGOUT[language].title,
    section: (language, heading) => {
      const copy = LOGOUT[language];
      return `<${heading}>${escapeHtml(copy.title)}</${heading}>
<p>${escapeHtml(copy.body(app))}</p>
<p>${escapeHtml(copy.detail)}</p>
<div class="actions">
<button class="primary" type="submit" form="op.logoutForm" name="logout" value="yes">${escapeHtml(copy.yes)}</button>
<button type="submit" form="op.logoutForm">${escapeHtml(copy.no)}</button>
</div>`;
    },
    head: `<meta name="referrer" content="no-referrer">\n<style>${STYLE}</style>\n`,
    tail: `${form}\n`,
  });
}

const SIGNED_OUT = {
  zh: { title: '已退出登录', body: '你已退出 Portico 账号。现在可以关闭本页。' },
  en: { title: 'Signed out', body: 'You are signed out of your Portico account. You may close this page.' },
} as const;

/** features.rpInitiatedLogout.postLogoutSuccessSource: a logout without a registered way back. */
export async function postLogoutSuccessSource(ctx: ProviderPageContext): Promise<void> {
  ctx.type = 'html';
  ctx.set('content-security-policy', csp());
  ctx.body = bilingualPage({
    first: languageOf(ctx),
    title: (language) => SIGNED_OUT[language].title,
    section: (language, heading) =>
      `<${heading}>${escapeHtml(SIGNED_OUT[language].title)}</${heading}>\n<p>${escapeHtml(SIGNED_OUT[language].body)}</p>`,
    head: `<style>${STYLE}</style>\n`,
  });
}

const FAILED = {
  zh: { title: '授权失败', body: '应用发来的请求无效，或已经过期。请回到应用重新开始。' },
  en: {
    title: 'Authorization failed',
    body: 'The app’s request is invalid or has expired. Go back to the app and start again.',
  },
} as const;

/** renderError: the provider's error page (the OAuth error and its description, escaped). */
export async function renderError(
  ctx: ProviderPageContext,
  out: { error: string; error_description?: string },
): Promise<void> {
  ctx.type = 'html';
  ctx.set('content-security-policy', csp());
  ctx.body = bilingualPage({
    first: languageOf(ctx),
    title: (language) => FAILED[language].title,
    section: (language, heading) =>
      `<${heading}>${escapeHtml(FAILED[language].title)}</${heading}>\n<p>${escapeHtml(FAILED[language].body)}</p>`,
    head: `<style>${STYLE}</style>\n`,
    tail: `<p><code>${escapeHtml(out.error)}</code> ${escapeHtml(out.error_description ?? '')}</p>\n`,
  });
}
