import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hmac, safeEqual } from '../../lib/crypto';

/**
 * The open-auth state cookie (it lasts 60 days, 5,184,000 s): the last connect redirect this browser
 * followed (client_key, scopes, state, redirect_uri, PKCE challenge), signed with the server secret.
 * The provider's interaction behind the authorization page lives an hour; a person who comes back
 * later (after a third-party sign-in round trip, or a day away) is offered to start that same request
 * again (open/connect/resume), and still has to approve it. It names no person and grants nothing.
 */

export const OPEN_AUTH_STATE_SECONDS = 5_184_000;

/** What a connect redirect carries, as the connect route's query schema has it. */
export interface ConnectRequest {
  client_key: string;
  scope?: string | undefined;
  optionalScope?: string | undefined;
  state?: string | undefined;
  redirect_uri: string;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
}

const FIELDS = [
  'client_key',
  'scope',
  'optionalScope',
  'state',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
] as const;

/** Browsers keep about 4 KB a cookie: a request too large for one is not remembered (no resume). */
const MAX_COOKIE_CHARS = 3800;

const isHttps = (app: FastifyInstance) => app.config.publicOrigin.startsWith('https:');
/** `passport_open_auth_state`, or `__Host-passport_open_auth_state` behind https. */
const cookieName = (app: FastifyInstance) => `${isHttps(app) ? '__Host-' : ''}passport_open_auth_state`;
const signatureOf = (app: FastifyInstance, payload: string) => hmac(app.secret, `open-auth state|${payload}`);

/** Remembers the connect request this browser follows (replacing an earlier one). */
export function rememberConnect(app: FastifyInstance, reply: FastifyReply, input: ConnectRequest): void {
  const kept: Record<string, string> = {};
  for (const field of FIELDS) if (typeof input[field] === 'string') kept[field] = input[field];
  const payload = Buffer.from(JSON.stringify(kept)).toString('base64url');
  const value = `${payload}.${signatureOf(app, payload)}`;
  if (value.length > MAX_COOKIE_CHARS) return;
  reply.setCookie(cookieName(app), value, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isHttps(app),
    maxAge: OPEN_AUTH_STATE_SECONDS,
  });
}

/** The connect request this browser last followed, if its cookie is there and signed by this server. */
export function recallConnect(app: FastifyInstance, request: FastifyRequest): ConnectRequest | undefined {
  const value = request.cookies?.[cookieName(app)];
  if (!value || value.length > MAX_COOKIE_CHARS) return undefined;
  const [payload = '', signature = '', ...rest] = value.split('.');
  if (rest.length || !safeEqual(signature, signatureOf(app, payload))) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!parsed || typeof parsed !== 'object') return undefined;
    const fields = parsed as Record<string, unknown>;
    if (typeof fields.client_key !== 'string' || typeof fields.redirect_uri !== 'string') return undefined;
    const out: Record<string, string> = {};
    for (const field of FIELDS) if (typeof fields[field] === 'string') out[field] = fields[field];
    return out as unknown as ConnectRequest;
  } catch {
    return undefined;
  }
}
