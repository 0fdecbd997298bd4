import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageLanguageOf } from '../lib/language';
import { CSRF_COOKIE, CSRF_HEADER } from '../protocol';
import { bilingualPage, escapeHtml, formPageCsp, PAGE_STYLE, type PageLanguage } from './bilingual-page';

/** What the page says, by what confirming does: sign out, or (organisation mode) leave an identity. */
const COPY = {
  zh: {
    signOut: {
      title: '退出登录？',
      body: '有一个链接想让你退出登录。如果是你自己要退出，请点击下面的按钮；否则关闭本页即可，你会保持登录。',
      confirm: '退出登录',
      stay: '保持登录',
      failed: '没能退出登录。请刷新本页后再试。',
      noScript: '退出登录需要启用 JavaScript。',
    },
    leave: {
      title: ({ org, name }: Leaving) => `不再以 ${name}（${org}）的身份操作？`,
      body: ({ org, name }: Leaving) =>
        `有一个链接想让你不再以 ${name}（${org}）的身份操作，回到个人身份。你会保持登录，仍是「${org}」的成员。如果是你自己要这样做，请点击下面的按钮；否则关闭本页即可。`,
      confirm: '回到个人身份',
      stay: '保持当前身份',
      failed: '没能回到个人身份。请刷新本页后再试。',
      noScript: '回到个人身份需要启用 JavaScript。',
    },
    nothingToLeave: {
      title: '没有要离开的组织身份',
      body: '有一个链接想让你不再以一个组织的身份操作，但你现在没有以该组织的身份操作：你没有登录，或正以个人或其他身份操作，或者组织不存在、你不是其成员。所以什么都不会改变。',
      next: '继续',
    },
  },
  en: {
    signOut: {
      title: 'Sign out?',
      body: 'A link asked to sign you out. If you want to sign out, press the button below; otherwise close this page and you stay signed in.',
      confirm: 'Sign out',
      stay: 'Stay signed in',
      failed: 'Signing out did not work. Reload this page and try again.',
      noScript: 'Signing out needs JavaScript.',
    },
    leave: {
      title: ({ org, name }: Leaving) => `Stop acting as ${name} (${org})?`,
      body: ({ org, name }: Leaving) =>
        `A link asked you to stop acting as ${name} (${org}) and go back to your personal identity. You stay signed in and remain a member of ${org}. If you want this, press the button below; otherwise close this page.`,
      confirm: 'Back to personal identity',
      stay: 'Keep this identity',
      failed: 'Going back to your personal identity did not work. Reload this page and try again.',
      noScript: 'Going back to your personal identity needs JavaScript.',
    },
    nothingToLeave: {
      title: 'No organisation identity to leave',
      body: 'A link asked you to stop acting as an organisation, but you are not acting as that organisation: you are not signed in, you are acting as yourself or as another identity, or it does not exist or you are not its member. So nothing changes.',
      next: 'Continue',
    },
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

/** The identity an organisation-mode logout leaves: its organisation's name and the identity's. */
export interface Leaving {
  org: string;
  name: string;
}

export interface LogoutConfirmation {
  /** The POST logout path of the same family (same-origin, relative). */
  action: string;
  /** Where to go once signed out: already checked by the redirect rule. */
  destination: string;
  /**
   * Organisation mode (`subject_aid`): the identity confirming leaves, or null when the session acts
   * for no such organisation (nothing to confirm). Absent: confirming signs out.
   */
  leaving?: Leaving | null;
}

/** The page's words in one language, by what confirming would do. */
function wordsOf(page: LogoutConfirmation, language: PageLanguage) {
  const copy = COPY[language];
  if (page.leaving === undefined) return copy.signOut;
  if (page.leaving === null) return copy.nothingToLeave;
  return { ...copy.leave, title: copy.leave.title(page.leaving), body: copy.leave.body(page.leaving) };
}

/** The page's section in one language: the question and its form, or that nothing will change. */
function sectionOf(page: LogoutConfirmation, language: PageLanguage, heading: 'h1' | 'h2'): string {
  const words = wordsOf(page, language);
  const intro = `<${heading}>${escapeHtml(words.title)}</${heading}>\n<p>${escapeHtml(words.body)}</p>`;
  if ('next' in words)
    return `${intro}\n<a class="button" href="${escapeHtml(page.destination)}">${escapeHtml(words.next)}</a>`;
  return `${intro}
<form method="post" action="${escapeHtml(page.action)}" data-logout data-destination="${escapeHtml(page.destination)}">
<button type="submit">${escapeHtml(words.confirm)}</button>
<a class="button" href="/">${escapeHtml(words.stay)}</a>
<p role="alert" hidden>${escapeHtml(words.failed)}</p>
</form>
<noscript><p>${escapeHtml(words.noScript)}</p></noscript>`;
}

/**
 * The page a GET logout answers when the navigation is not one the browser vouches for
 * (flows/sign-out): the session is kept and the person decides. With `subject_aid` it asks to leave
 * that organisation's identity, which is all confirming does. HTML in both languages, the person's
 * first (`pageLanguageOf`); `frame-ancestors 'none'`, so no page can frame it and click for the
 * person; never cached.
 */
export function sendLogoutConfirmation(
  request: FastifyRequest,
  reply: FastifyReply,
  page: LogoutConfirmation,
): FastifyReply {
  const html = bilingualPage({
    first: pageLanguageOf(request),
    title: (language) => wordsOf(page, language).title,
    section: (language, heading) => sectionOf(page, language, heading),
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
