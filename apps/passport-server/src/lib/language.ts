import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LANGUAGE_COOKIE } from '../protocol';

/** The language of messages for this request: `language` in the query or body, zh by default. */
export function languageOf(request: FastifyRequest): 'zh' | 'en' {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.language;
  const fromBody = (request.body as Record<string, unknown> | undefined)?.language;
  const language = typeof fromQuery === 'string' ? fromQuery : fromBody;
  return typeof language === 'string' && language.toLowerCase().startsWith('en') ? 'en' : 'zh';
}

/**
 * The language a person asked for on a page the server renders for an OAuth client: the request's
 * `ui_locales` (space-separated, in order of preference) first, then the browser's Accept-Language
 * (by its q-values); undefined when neither names zh or en.
 */
export function preferredLanguage(uiLocales: unknown, acceptLanguage: unknown): 'zh' | 'en' | undefined {
  const pick = (tag: string) => {
    const primary = tag.trim().toLowerCase().split('-')[0];
    return primary === 'zh' || primary === 'en' ? primary : undefined;
  };
  if (typeof uiLocales === 'string')
    for (const tag of uiLocales.split(/\s+/)) {
      const found = pick(tag);
      if (found) return found;
    }
  if (typeof acceptLanguage !== 'string') return undefined;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const found = pick(tag);
    if (found) return found;
  }
  return undefined;
}

/**
 * The first language of a page the server renders for a person (the sso error page, the logout
 * confirmation): the request's `language`, then an app's `ui_locales`, then the person's choice in the
 * apps (the `LANGUAGE_COOKIE` their pages write on this host), then the browser's Accept-Language;
 * zh when none names zh or en.
 */
export function pageLanguageOf(request: FastifyRequest): 'zh' | 'en' {
  const query = request.query as Record<string, unknown> | undefined;
  const asked =
    typeof query?.language === 'string' ? preferredLanguage(query.language, undefined) : undefined;
  return (
    asked ??
    preferredLanguage(query?.ui_locales, undefined) ??
    chosenLanguage(request) ??
    preferredLanguage(undefined, request.headers['accept-language']) ??
    'zh'
  );
}

/** zh or en when `value` is exactly one of them (a stored or remembered choice), else undefined. */
export const knownLanguage = (value: unknown): 'zh' | 'en' | undefined =>
  value === 'zh' || value === 'en' ? value : undefined;

/** The choice this browser remembers (the `LANGUAGE_COOKIE` the apps' switch writes), if any. */
export const chosenLanguage = (request: FastifyRequest) => knownLanguage(request.cookies?.[LANGUAGE_COOKIE]);

/** A year, in seconds: as long as the apps' switch remembers a choice (account-pages' language store). */
const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600;

/**
 * Writes the language cookie as the apps' switch does (path `/`, a year, readable by the pages,
 * COOKIE_DOMAIN when set), so every app on this host starts in it.
 */
export function rememberLanguage(app: FastifyInstance, reply: FastifyReply, language: 'zh' | 'en'): void {
  reply.setCookie(LANGUAGE_COOKIE, language, {
    path: '/',
    maxAge: LANGUAGE_COOKIE_SECONDS,
    sameSite: 'lax',
    httpOnly: false,
    secure: app.config.publicOrigin.startsWith('https:'),
    ...(app.config.cookieDomain ? { domain: app.config.cookieDomain } : {}),
  });
}
