import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hmac, safeEqual } from '../../lib/crypto';

/**
 * The open-auth state cookie (it lasts 60 days, 5,184,000 s): the last connect request this browser
 * followed (client_key, scopes, state, redirect_uri, PKCE challenge) and, once the authorization page
 * has shown it, the provider's interaction it became; signed with the server secret, with the time it
 * was issued. The provider's interaction lives half an hour: a person who comes back to that very
 * interaction later (after a third-party sign-in round trip, or a day away) is offered to start the same
 * request again (open/connect/resume), which asks for consent again. It names no person and grants
 * nothing. Another site can make the browser follow a connect of its own, which replaces the cookie;
 * then the first interaction is no longer the one the cookie names, and no resume is offered for it.
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

/** The cookie's content: the request, when it was issued, and the interaction it became. */
interface KeptConnect extends ConnectRequest {
  issued_at: number;
  interaction?: string;
}

const FIELDS = [
  'client_key',
  'scope',
  'optionalScope',
  'state',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'interaction',
] as const;

/** Browsers keep about 4 KB a cookie: a request too large for one is not remembered (no resume). */
const MAX_COOKIE_CHARS = 3800;
/** Only the open family reads it: it does not ride on every other passport request. */
const COOKIE_PATH = '/passport/open/';

const isHttps = (app: FastifyInstance) => app.config.publicOrigin.startsWith('https:');
/** `passport_open_auth_state`, or `__Secure-passport_open_auth_state` behind https (its path is not `/`). */
const cookieName = (app: FastifyInstance) => `${isHttps(app) ? '__Secure-' : ''}passport_open_auth_state`;
const cookieOptions = (app: FastifyInstance) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: COOKIE_PATH,
  secure: isHttps(app),
});
const signatureOf = (app: FastifyInstance, payload: string) => hmac(app.secret, `open-auth state|${payload}`);

function write(app: FastifyInstance, reply: FastifyReply, kept: KeptConnect): void {
  const payload = Buffer.from(JSON.stringify(kept)).toString('base64url');
  const value = `${payload}.${signatureOf(app, payload)}`;
  // Too large to keep: an older request must not stand in for this one.
  if (value.length > MAX_COOKIE_CHARS) reply.clearCookie(cookieName(app), cookieOptions(app));
  else reply.setCookie(cookieName(app), value, { ...cookieOptions(app), maxAge: OPEN_AUTH_STATE_SECONDS });
}

function read(app: FastifyInstance, request: FastifyRequest): KeptConnect | undefined {
  const value = request.cookies?.[cookieName(app)];
  if (!value || value.length > MAX_COOKIE_CHARS) return undefined;
  const [payload = '', signature = '', ...rest] = value.split('.');
  if (rest.length || !safeEqual(signature, signatureOf(app, payload))) return undefined;
  try {
    const fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof fields.client_key !== 'string' || typeof fields.redirect_uri !== 'string') return undefined;
    // A copied value is worth no more than the cookie: 60 days from its issue, whatever Max-Age said.
    const issued = Number(fields.issued_at);
    if (!Number.isFinite(issued) || app.runtime.now() - issued > OPEN_AUTH_STATE_SECONDS * 1000)
      return undefined;
    const out: Record<string, string | number> = { issued_at: issued };
    for (const field of FIELDS) if (typeof fields[field] === 'string') out[field] = fields[field];
    return out as unknown as KeptConnect;
  } catch {
    return undefined;
  }
}

/** Remembers the connect request this browser follows (replacing an earlier one). */
export function rememberConnect(app: FastifyInstance, reply: FastifyReply, input: ConnectRequest): void {
  const kept: Record<string, string | number> = { issued_at: app.runtime.now() };
  for (const field of FIELDS)
    if (field !== 'interaction' && typeof input[field] === 'string') kept[field] = input[field];
  write(app, reply, kept as unknown as KeptConnect);
}

/**
 * The authorization page shows a live interaction: when it is the remembered request (same app,
 * redirect URI and state), the cookie learns its id, so that this interaction, once expired, may resume.
 */
export function noteInteraction(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  interaction: { uid: string; params: Record<string, unknown> },
): void {
  const kept = read(app, request);
  if (!kept || kept.interaction === interaction.uid) return;
  const { params } = interaction;
  const same =
    params.client_id === kept.client_key &&
    params.redirect_uri === kept.redirect_uri &&
    (params.state ?? undefined) === kept.state;
  if (same) write(app, reply, { ...kept, interaction: interaction.uid });
}

/** Whether this expired interaction is the one the browser's cookie remembers. */
export const canResume = (app: FastifyInstance, request: FastifyRequest, interaction: string): boolean =>
  read(app, request)?.interaction === interaction;

/** The connect request this browser last followed, if its cookie is there, signed and in date. */
export function recallConnect(app: FastifyInstance, request: FastifyRequest): ConnectRequest | undefined {
  const kept = read(app, request);
  if (!kept) return undefined;
  const { issued_at: _issued, interaction: _interaction, ...connect } = kept;
  return connect;
}
