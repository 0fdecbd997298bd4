import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassportError } from '../errors';
import { safeRedirect } from '../lib/redirect';

/** Ends the request's session server side and in the browser; answers the checked `next`. */
export async function signOut(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  next?: unknown,
) {
  await app.sessions.signOut(request, reply);
  return { next: safeRedirect(next, app.config.publicOrigin, app.config.allowedOrigins) };
}

/**
 * Logout by GET, the one GET that changes state (the SDK logs out by navigating). It refuses what a
 * foreign page would send: a cross-site navigation whose Referer is not an allowed origin. `redirect`
 * says whether to send the browser on to `next` (unless `not_redirect=1`).
 */
export async function signOutByLink(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  query: { next?: string | undefined; not_redirect?: string | undefined },
) {
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    let referrer: string | null = null;
    try {
      referrer = request.headers.referer ? new URL(request.headers.referer).origin : null;
    } catch {}
    const trusted =
      referrer === app.config.publicOrigin || app.config.allowedOrigins.includes(referrer ?? '');
    if (!referrer || !trusted) throw new PassportError('csrfFailed', { reason: 'origin' });
  }
  const answer = await signOut(app, request, reply, query.next);
  return { ...answer, redirect: query.not_redirect !== '1' };
}
