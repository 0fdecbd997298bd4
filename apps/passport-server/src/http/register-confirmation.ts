import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageLanguageOf } from '../lib/language';
import { CSRF_COOKIE, CSRF_HEADER, ErrorCode } from '../protocol';
import { bilingualPage, escapeHtml, formPageCsp, PAGE_STYLE } from './bilingual-page';

const COPY = {
  zh: {
    title: '完成注册',
    body: '点击下面的按钮，用这个邮箱创建账号并登录。',
    create: '创建账号',
    failed: '链接已失效或已使用过。请回到注册页重新注册。',
    exists: '这个邮箱已经有账号了，请直接登录。',
    noScript: '完成注册需要启用 JavaScript。',
  },
  en: {
    title: 'Finish creating your account',
    body: 'Press the button below to create the account with this address and sign in.',
    create: 'Create account',
    failed: 'This link has expired or was used already. Go back to the sign-up page and start again.',
    exists: 'This address has an account already: sign in instead.',
    noScript: 'Finishing the sign-up needs JavaScript.',
  },
} as const;

/**
 * The button posts the link's token with the SDK's CSRF header (the GET that opened the page set the
 * cookie), then goes where the server answers (`next_url`, already checked). Static, so the CSP allows
 * exactly it by hash.
 */
const SCRIPT = `document.querySelectorAll('form[data-register]').forEach(function (form) {
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var token = (document.cookie.match(/(?:^|; )${CSRF_COOKIE}=([^;]*)/) || [])[1] || '';
    var show = function (name) {
      form.querySelectorAll('[role=alert]').forEach(function (alert) { alert.hidden = alert.getAttribute('data-for') !== name; });
    };
    fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/x-www-form-urlencoded', '${CSRF_HEADER}': decodeURIComponent(token) },
      body: new URLSearchParams(new FormData(form)).toString()
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok && body.message === 'success') return window.location.assign(body.data.next_url || '/');
        show(body.data && body.data.error_code === ${ErrorCode.accountExists} ? 'exists' : 'failed');
      });
    }).catch(function () { show('failed'); });
  });
});`;

/** Nothing but the script and the server pages' style; never framed; the form posts to this site only. */
const CSP = formPageCsp(SCRIPT);

/**
 * The page the no-verify registration's link opens (src/flows/register-link.ts). Opening it changes
 * nothing (mail scanners follow links); the person's button does. No referrer leaves it, so the token
 * in its address goes nowhere else.
 */
export function sendRegisterConfirmation(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { action: string; token: string },
): FastifyReply {
  const first = pageLanguageOf(request);
  const html = bilingualPage({
    first,
    title: (language) => COPY[language].title,
    section: (language, heading) => {
      const copy = COPY[language];
      return `<${heading}>${escapeHtml(copy.title)}</${heading}>
<p>${escapeHtml(copy.body)}</p>
<form method="post" action="${escapeHtml(page.action)}" data-register>
<input type="hidden" name="token" value="${escapeHtml(page.token)}">
<button type="submit">${escapeHtml(copy.create)}</button>
<p role="alert" data-for="failed" hidden>${escapeHtml(copy.failed)}</p>
<p role="alert" data-for="exists" hidden>${escapeHtml(copy.exists)}</p>
</form>
<noscript><p>${escapeHtml(copy.noScript)}</p></noscript>`;
    },
    head: `<meta name="referrer" content="no-referrer">\n<style>${PAGE_STYLE}</style>\n`,
    tail: `<script>${SCRIPT}</script>\n`,
  });
  return reply
    .code(200)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', CSP)
    .type('text/html; charset=utf-8')
    .send(html);
}
