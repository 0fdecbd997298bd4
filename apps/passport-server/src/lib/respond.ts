import type { FastifyRequest } from 'fastify';
import type { Session } from '../plugins/app/sessions';
import type { AccountInfo, EnvelopeSource } from '../protocol';
import { mask } from './identifiers';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The envelope a route answers in; web by default. */
    envelope?: EnvelopeSource;
  }
}

/** The language of messages for this request: `language` in the query or body, zh by default. */
export function languageOf(request: FastifyRequest): 'zh' | 'en' {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.language;
  const fromBody = (request.body as Record<string, unknown> | undefined)?.language;
  const language = typeof fromQuery === 'string' ? fromQuery : fromBody;
  return typeof language === 'string' && language.toLowerCase().startsWith('en') ? 'en' : 'zh';
}

/** The account as the client sees it: identifiers masked, no hash, no internal flags. */
export function accountInfo(session: Session, extra: { newUser?: boolean } = {}): AccountInfo {
  const { user } = session;
  return {
    user_id: user.id,
    sec_user_id: user.id,
    screen_name: user.screen_name,
    name: user.screen_name,
    avatar_url: '',
    mobile: user.mobile ? mask(user.mobile) : '',
    email: user.email ? mask(user.email) : '',
    username: user.username ?? '',
    has_password: user.password_hash !== null,
    is_frozen: Number(user.is_frozen),
    ...(extra.newUser === undefined ? {} : { new_user: extra.newUser }),
    session: { created_at: session.createdAt, expires_at: session.expiresAt },
  };
}
