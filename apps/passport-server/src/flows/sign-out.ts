import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invoke } from '../adapters/invoke';
import { requestOf } from '../adapters/request';
import { PassportError } from '../errors';
import { sendLogoutConfirmation } from '../http/logout-confirmation';
import { safeRedirect } from '../lib/redirect';
import { signOut as signOutOperation } from '../operations/sign-in/sign-out';
import { identityLeftBy, leaveOrganisation } from './identity-sign-in';

/**
 * The sign-out's adapter: the `account.sign_out` operation ends the browser's session with its
 * `account.session_revoked` (one commit), then the browser's cookies go; answers the checked `next`.
 * Every logout route of every family comes here; the GET links through `logoutByLink`.
 */
export async function signOut(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  next?: unknown,
  subject?: string,
) {
  await signOutOrLeave(app, request, reply, subject);
  return { next: safeRedirect(next, app.config.publicOrigin, app.config.allowedOrigins) };
}

/**
 * Organisation mode's `subject_aid`, from where a logout reads it (the query first, then the form): the
 * first one given. Empty is not given, so `?subject_aid=` never takes the place of the form's value
 * (and signs the person out altogether).
 */
export function subjectAidOf(...sent: (string | undefined)[]): string | undefined {
  return sent.find((value) => value !== undefined && value !== '');
}

/** What every logout does: end the session, or in organisation mode leave that identity only. */
async function signOutOrLeave(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  subject: string | undefined,
) {
  // Organisation mode (`subject_aid`): only that organisation's identity is left; the person stays
  // signed in as themselves (docs/organisations.md, "Organisation mode on the browser redirects").
  if (subject) {
    await leaveOrganisation(app, request, reply, subject);
    return;
  }
  // Signed out already: nothing to end, but the cookies go all the same (a dead session's, a new
  // pre-session id).
  const userId = request.session?.userId;
  if (request.session)
    await invoke(app, signOutOperation, {}, { kind: 'anonymous' }, requestOf(app, request));
  // The apps this browser signed in to through Portico hear of it (back-channel logout), after the
  // commit: the provider's session of this browser ends with the Portico one.
  // A notice that fails is logged: the sign-out stands, and the cookies still go.
  if (userId)
    await app.openAuth
      .signedOut(request.cookies, userId)
      .catch((error: unknown) => request.log.warn({ err: error }, 'back-channel logout failed'));
  app.sessions.forget(request, reply);
}

/** What a GET logout may do: sign out, ask the person first, or refuse a forged navigation. */
export type LogoutNavigation = 'signOut' | 'confirm' | 'refuse';

/**
 * Logout by GET is the one GET that changes state (the SDK logs out by navigating). Only a navigation
 * the browser vouches for ends the session at once: `Sec-Fetch-Site: same-origin` (this site's own
 * page) or `none` (a typed address, a bookmark). Anything else — no header (an old browser, a script),
 * `same-site` (a sibling subdomain), a cross-site link from a trusted origin — gets a confirmation page
 * and keeps the session; a cross-site navigation whose Referer is not trusted is refused outright.
 */
export function judgeLogoutNavigation(request: FastifyRequest, trusted: readonly string[]): LogoutNavigation {
  const site = request.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return 'signOut';
  // The SDK's logout() from an allowed app on another origin: a CORS fetch, which carries the page's own
  // Origin (no other page can send it, and a navigation sends none).
  const origin = request.headers.origin;
  if (
    typeof origin === 'string' &&
    trusted.includes(origin) &&
    request.headers['sec-fetch-mode'] !== 'navigate'
  )
    return 'signOut';
  if (site !== 'cross-site') return 'confirm';
  let referrer: string | null = null;
  try {
    referrer = request.headers.referer ? new URL(request.headers.referer).origin : null;
  } catch {}
  return referrer !== null && trusted.includes(referrer) ? 'confirm' : 'refuse';
}

/** A GET logout's own terms, which differ by family. */
export interface LogoutLink {
  /** Origins whose cross-site links get the confirmation page instead of a refusal. */
  trusted: readonly string[];
  /** Where the browser goes once done, already checked by the family's redirect rule. */
  destination: string;
  /** The family's POST logout (same-origin path), which the confirmation page's button calls. */
  action: string;
  /** Organisation mode (`subject_aid`): the organisation whose identity is left, instead of signing out. */
  subject?: string | undefined;
}

/**
 * GET logout of every family: signs out (or, with `subject`, leaves that organisation's identity) and
 * answers true, for the route to send the browser on to `destination`; or answers the confirmation page
 * and false; or refuses (judgeLogoutNavigation).
 */
export async function logoutByLink(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  { trusted, destination, action, subject }: LogoutLink,
): Promise<boolean> {
  const verdict = judgeLogoutNavigation(request, trusted);
  if (verdict === 'refuse') throw new PassportError('csrfFailed', { reason: 'origin' });
  if (verdict === 'signOut') {
    await signOutOrLeave(app, request, reply, subject);
    return true;
  }
  if (!subject) {
    await sendLogoutConfirmation(request, reply, { action, destination });
    return false;
  }
  // Confirmed, the page's POST leaves the same organisation only, as the link asked; the page says so.
  const left = await identityLeftBy(app, request, subject);
  await sendLogoutConfirmation(request, reply, {
    action: `${action}?subject_aid=${encodeURIComponent(subject)}`,
    destination,
    leaving: left && { org: left.subject_name, name: left.deputy_name },
  });
  return false;
}
