import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageLanguageOf } from '../lib/language';
import { CSRF_COOKIE, CSRF_HEADER } from '../protocol';
import { bilingualPage, escapeHtml, formPageCsp, PAGE_STYLE } from './bilingual-page';

const COPY = {
  zh: {
    title: '退出登录？',
    body: '有一个链接想让你退出登录。如果是你自己要退出，请点击下面的按钮；否则关闭本页即可，你会保持登录。',
    signOut: '退出登录',
    stay: '保持登录',
    failed: '没能退出登录。请刷新本页后再试。',
    noScript: '退出登录需要启用 JavaScript。',
  },
  en: {
    title: 'Sign out?',
    body: 'A link asked to sign you out. If you want to sign out, press the button below; otherwise close this page and you stay signed in.',
    signOut: 'Sign out',
    stay: 'Stay signed in',
    failed: 'Signing out did not work. Reload this page and try again.',
    noScript: 'Signing out needs JavaScript.',
  },
} as const;

/**
 * The button does the SDK's POST logout: the CSRF token from the readable cookie into the header (the
 * server accepts it nowhere else), then on to the destination the server already checked. Static, so
 * the CSP allows exactly it by hash.
 */
const SCRIPT = `document.querySelectorAll('form[data-logout]').forEach(function (form) {
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var token = (document.cookie.match(/(?:^|; )${CSRF_COOKIE}=([^;]*)/) || [])[1] || '';
    var failed = form.querySelector('[role=alert]');
    fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', '${CSRF_HEADER}': decodeURIComponent(token) },
      body: ''
    }).then(function (response) {
      return response.json().then(function (body) {
        var ok = response.ok && (body.message === 'success' || body.error_code === 0);
        if (!ok) throw new Error('logout');
        window.location.assign(form.getAttribute('data-destination') || '/');
      });
    }).catch(function () { failed.hidden = false; });
  });
});`;

/** Nothing but the script and style above; never framed; the form posts to this site only. */
const CSP = formPageCsp(SCRIPT);

export interface LogoutConfirmation {
  /** The POST logout path of the same family (same-origin, relative). */
  action: string;
  /** Where to go once signed out: already checked by the redirect rule. */
  destination: string;
}

/**
 * The page a GET logout answers when the navigation is not one the browser vouches for
 * (flows/sign-out): the session is kept and the person decides. HTML in both languages, the person's
 * first (`pageLanguageOf`); `frame-ancestors 'none'`, so no page can frame it and click for
 * the person; never cached.
 */
export function sendLogoutConfirmation(
  request: FastifyRequest,
  reply: FastifyReply,
  page: LogoutConfirmation,
): FastifyReply {
  const first = pageLanguageOf(request);
  const html = bilingualPage({
    first,
    title: (language) => COPY[language].title,
    section: (language, heading) => {
      const copy = COPY[language];
      return `<${heading}>${escapeHtml(copy.title)}</${heading}>
<p>${escapeHtml(copy.body)}</p>
<form method="post" action="${escapeHtml(page.action)}" data-logout data-destination="${escapeHtml(page.destination)}">
<button type="submit">${escapeHtml(copy.signOut)}</button>
<a class="button" href="/">${escapeHtml(copy.stay)}</a>
<p role="alert" hidden>${escapeHtml(copy.failed)}</p>
</form>
<noscript><p>${escapeHtml(copy.noScript)}</p></noscript>`;
    },
    head: `<meta name="referrer" content="no-referrer">\n<style>${PAGE_STYLE}</style>\n`,
    tail: `<script>${SCRIPT}</script>\n`,
  });
  return reply
    .code(200)
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .type('text/html; charset=utf-8')
    .send(html);
}
