import type { FastifyReply, FastifyRequest } from 'fastify';
import { bilingualPage, escapeHtml, type PageLanguage } from '../../http/bilingual-page';
import { errors } from '../../protocol';

type Language = PageLanguage;

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

/** The page's first language: `language` in the query, zh by default (as the apps default to zh). */
export function pageLanguage(request: FastifyRequest): Language {
  const query = (request.query as Record<string, unknown> | undefined)?.language;
  return typeof query === 'string' && query.trim().toLowerCase().startsWith('en') ? 'en' : 'zh';
}

/**
 * The page /sso/login answers when the service cannot be sent a ticket: HTML (a person reads it),
 * HTTP 400, no redirect and no link built from the input. It says it in both languages, the asked one
 * (`language`, zh by default) first: the server cannot see the language a person picked in the app.
 * The catalogue code is REDIRECT_NOT_ALLOWED.
 */
export function serviceErrorPage(
  request: FastifyRequest,
  reply: FastifyReply,
  reason: 'missing' | 'malformed' | 'unregistered',
) {
  const first = pageLanguage(request);
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
  });
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .type('text/html; charset=utf-8')
    .send(html);
}
