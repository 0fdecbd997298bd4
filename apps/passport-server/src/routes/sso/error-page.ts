import type { FastifyReply, FastifyRequest } from 'fastify';
import { bilingualPage, escapeHtml, PAGE_STYLE, PAGE_STYLE_HASH } from '../../http/bilingual-page';
import { pageLanguageOf } from '../../lib/language';
import { errors } from '../../protocol';

const COPY = {
  zh: {
    title: '无法登录该服务',
    missing: '登录链接缺少要返回的服务地址（service）。请回到你要使用的服务，从那里重新登录。',
    malformed: '登录链接中的服务地址（service）无效。请回到你要使用的服务，从那里重新登录。',
    unregistered:
      '这个服务没有在本站登记，所以不能用本站账号登录，也不会带你跳转过去。如果你是该服务的运营者，请联系本站管理员登记服务地址。',
    code: '错误码',
  },
  en: {
    title: 'Cannot sign in to this service',
    missing:
      'The sign-in link does not say which service to return to (service). Go back to the service you were using and sign in from there.',
    malformed:
      'The service address in the sign-in link (service) is not valid. Go back to the service you were using and sign in from there.',
    unregistered:
      'This service is not registered with this site, so you cannot sign in to it with this account and you will not be sent there. If you run the service, ask the administrators of this site to register its address.',
    code: 'Error code',
  },
} as const;

/**
 * The page /sso/login answers when the service cannot be sent a ticket: HTML (a person reads it),
 * HTTP 400, no redirect and no link built from the input. It says it in both languages, the person's
 * first (`pageLanguageOf`: the asked one, the choice made in the apps, the browser's).
 * The catalogue code is REDIRECT_NOT_ALLOWED.
 */
export function serviceErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  reason: 'missing' | 'malformed' | 'unregistered',
) {
  const first = pageLanguageOf(request);
  const { code } = errors.redirectNotAllowed;
  const html = bilingualPage({
    first,
    title: (language) => COPY[language].title,
    section: (language, heading) => {
      const copy = COPY[language];
      return `<${heading}>${escapeHtml(copy.title)}</${heading}>
<p>${escapeHtml(copy[reason])}</p>
<p><small>${escapeHtml(copy.code)}: ${code}</small></p>`;
    },
    head: `<style>${PAGE_STYLE}</style>\n`,
  });
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src ${PAGE_STYLE_HASH}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .type('text/html; charset=utf-8')
    .send(html);
}
