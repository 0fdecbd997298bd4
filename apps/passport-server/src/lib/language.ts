import type { FastifyRequest } from 'fastify';

/** The language of messages for this request: `language` in the query or body, zh by default. */
export function languageOf(request: FastifyRequest): 'zh' | 'en' {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.language;
  const fromBody = (request.body as Record<string, unknown> | undefined)?.language;
  const language = typeof fromQuery === 'string' ? fromQuery : fromBody;
  return typeof language === 'string' && language.toLowerCase().startsWith('en') ? 'en' : 'zh';
}
