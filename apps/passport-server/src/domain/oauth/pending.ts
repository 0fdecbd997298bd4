import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassportError } from '../../errors';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto';
import type { AuthorizationChecks, ProviderIdentity, ProviderName } from './providers';

/**
 * The short-lived state of a third-party sign-in, in the store (so it works on several instances):
 * the authorization started in a browser (state, PKCE verifier, nonce, callback, next), and the
 * pending profile of an identity that is not linked yet (profile_key). Both are bound to the browser
 * that started by an HttpOnly cookie whose value only the store's key is derived from: a state, a code
 * or a profile_key carried to another browser is worth nothing there.
 */

export const OAUTH_FLOW_TTL_MS = 10 * 60_000;
export const OAUTH_PROFILE_TTL_MS = 15 * 60_000;

export interface OAuthFlow extends AuthorizationChecks {
  provider: ProviderName;
  redirectUri: string;
  next: string;
  action: string;
  /** The organisation the sign-in lands in (the redirect's `subject_aid`), when one was named. */
  subject?: string;
}

export interface PendingProfile extends ProviderIdentity {
  browser: string;
}

/** The browser binding's cookie: `passport_oauth`, or `__Host-passport_oauth` behind https. */
const cookieName = (app: FastifyInstance) =>
  app.config.publicOrigin.startsWith('https:') ? '__Host-passport_oauth' : 'passport_oauth';
const cookieOptions = (app: FastifyInstance) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  path: '/',
  secure: app.config.publicOrigin.startsWith('https:'),
  maxAge: OAUTH_PROFILE_TTL_MS / 1000,
});

/**
 * The browser's third-party binding: its cookie's value, set when missing. Enterprise single sign-on
 * binds its flows to the same cookie (src/flows/enterprise-sign-in.ts).
 */
export function browserOf(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies?.[cookieName(app)];
  if (existing && existing.length >= 32 && existing.length <= 64) return existing;
  const fresh = randomToken();
  reply.setCookie(cookieName(app), fresh, cookieOptions(app));
  return fresh;
}

const flowKey = (browser: string, state: string) => `oauth:flow:${sha256(`${browser}:${state}`)}`;
const profileKey = (key: string) => `oauth:profile:${sha256(key)}`;

/** Keeps an authorization started in this browser until its callback. */
export async function saveFlow(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: OAuthFlow,
) {
  const browser = browserOf(app, request, reply);
  await app.store.set(flowKey(browser, flow.state), JSON.stringify(flow), OAUTH_FLOW_TTL_MS);
}

/** The binding the browser presents, or undefined without one. */
export const presentedBrowser = (app: FastifyInstance, request: FastifyRequest): string | undefined =>
  request.cookies?.[cookieName(app)];

/**
 * Takes (once) the authorization this browser started with `state`: OAUTH_STATE_MISMATCH for another
 * browser, an unknown or used state, or another provider.
 */
export async function takeFlow(
  app: FastifyInstance,
  request: FastifyRequest,
  state: string,
  provider: ProviderName,
): Promise<OAuthFlow> {
  const browser = presentedBrowser(app, request);
  if (!browser || !state) throw new PassportError('oauthStateMismatch');
  const raw = await app.store.take(flowKey(browser, state));
  if (!raw) throw new PassportError('oauthStateMismatch');
  const flow = JSON.parse(raw) as OAuthFlow;
  if (flow.provider !== provider) throw new PassportError('oauthStateMismatch');
  return flow;
}

/** Keeps the profile of an identity not linked yet; answers its profile_key. */
export async function savePendingProfile(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: ProviderIdentity,
): Promise<string> {
  const browser = browserOf(app, request, reply);
  const key = randomToken();
  const pending: PendingProfile = { ...identity, browser: sha256(browser) };
  await app.store.set(profileKey(key), JSON.stringify(pending), OAUTH_PROFILE_TTL_MS);
  return key;
}

/** The pending profile of profile_key in this browser, or OAUTH_PROFILE_EXPIRED. */
export async function readPendingProfile(app: FastifyInstance, request: FastifyRequest, key: string) {
  const browser = request.cookies?.[cookieName(app)];
  const raw = key ? await app.store.get(profileKey(key)) : null;
  if (!raw || !browser) throw new PassportError('oauthStateMismatch');
  const pending = JSON.parse(raw) as PendingProfile;
  if (!safeEqual(pending.browser, sha256(browser))) throw new PassportError('oauthStateMismatch');
  return pending;
}

/** Uses a pending profile up (once linked). */
export const dropPendingProfile = (app: FastifyInstance, key: string) => app.store.delete(profileKey(key));
