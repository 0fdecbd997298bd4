import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { chargeSsoTicket } from '../../domain/limits/request-rates';
import { checkService, withTicket } from '../../domain/sso/services';
import { ssoTickets } from '../../domain/sso/tickets';
import { PassportError } from '../../errors';
import { logoutByLink, subjectAidOf } from '../../flows/sign-out';
import { mask } from '../../lib/identifiers';
import { paths, ssoSuccess } from '../../protocol';
import { CommonQuery, SsoFailure, ssoResponses } from '../../schemas/common';
import { SubjectAid } from '../../schemas/logout';
import { sendAppIndex } from '../site/mounts';
import { serviceErrorPage } from './error-page';

/**
 * Central sign-in for a product's other services (README, "SSO"):
 *
 * - GET /sso/login?service=<url>: a browser signed in already goes to <url> with a `ticket`; a
 *   browser that is not gets the sso app's sign-in page; an unregistered or malformed service gets an
 *   error page (HTML, 400), never a redirect.
 * - GET /passport/sso/service_validate/?service=<url>&ticket=<ticket>: the service's back end trades
 *   the ticket, once, for the user (sso envelope).
 * - GET /sso/logout?next=<url>: ends the session and returns to next when it is a registered service
 *   (a navigation the browser does not vouch for as same-origin or typed gets a confirmation page);
 *   with subject_aid it leaves that organisation's identity only, as every logout does.
 *
 * With SSO_HOST set, /login and /logout on that host are the same pages.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers on this host only: its path is no API path on other hosts (routes/site). */
    onlyHost?: string;
  }
}

const SERVICE = Type.String({ description: 'the service URL, whose origin is in SSO_SERVICES' });

const LoginQuery = Type.Object(
  { ...CommonQuery.properties, service: Type.Optional(SERVICE) },
  { additionalProperties: true },
);
const LogoutQuery = Type.Object(
  {
    ...CommonQuery.properties,
    next: Type.Optional(Type.String({ description: 'where to return: a registered service, else /' })),
    subject_aid: SubjectAid,
  },
  { additionalProperties: true },
);
const ValidateQuery = Type.Object(
  {
    ...CommonQuery.properties,
    service: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'the service URL, exactly as sent to /sso/login',
    }),
    ticket: Type.String({ minLength: 1, maxLength: 128, description: 'the ticket the browser brought back' }),
  },
  { additionalProperties: true },
);

const TicketUser = Type.Object({
  user_id: Type.String(),
  screen_name: Type.String(),
  mobile: Type.String({ description: 'masked, empty when none' }),
  email: Type.String({ description: 'masked, empty when none' }),
});
const PAGE = { description: 'an HTML page' };

/** A string of the host's name with an optional port, for the host-constrained twins of the pages. */
const hostPattern = (host: string) => new RegExp(`^${host.replace(/[.]/g, '\\.')}(:\\d+)?$`, 'i');

export default async function ssoRoutes(app: FastifyInstance) {
  const tickets = ssoTickets({ store: app.store, db: app.db, secret: app.secret, now: app.runtime.now });
  const ssoApp = app.config.apps.find((served) => served.name === 'sso');

  async function login(request: FastifyRequest, reply: FastifyReply) {
    const { service } = request.query as { service?: string };
    const checked = checkService(service, app.config.ssoServices);
    if (!checked.ok) return serviceErrorPage(request, reply, checked.reason);
    const { session } = request;
    if (session) {
      await chargeSsoTicket(app, request, session.id);
      const ticket = await tickets.issue(checked.url, session);
      return reply.header('cache-control', 'no-store').redirect(withTicket(checked.url, ticket), 302);
    }
    if (!ssoApp) throw new PassportError('notFound');
    // The sign-in page depends on the session: never cached.
    return sendAppIndex(reply, ssoApp, 'no-store');
  }

  /**
   * A service's "sign out" link navigates here: the GET logout of every family (flows/sign-out), on
   * this family's terms. A registered service's link is trusted too, `next` must be a registered
   * service, and the confirmation page posts to the sso POST logout.
   */
  async function logout(request: FastifyRequest, reply: FastifyReply) {
    const { publicOrigin, allowedOrigins, ssoServices } = app.config;
    const { next, subject_aid } = request.query as { next?: string; subject_aid?: string };
    const checked = checkService(next, ssoServices);
    const destination = checked.ok ? checked.url : '/';
    const done = await logoutByLink(app, request, reply, {
      trusted: [publicOrigin, ...allowedOrigins, ...ssoServices],
      destination,
      action: paths.sso.logout,
      subject: subjectAidOf(subject_aid),
    });
    if (done) return reply.header('cache-control', 'no-store').redirect(destination, 302);
    return reply;
  }

  const pages = [
    {
      path: '/login',
      handler: login,
      schema: {
        summary:
          'SSO sign-in: a signed-in browser goes to the service with a ticket; otherwise the sso sign-in page; an unregistered service gets an error page',
        tags: ['sso'],
        querystring: LoginQuery,
        response: { 200: PAGE, 302: Type.Null({ description: 'to the service, with ?ticket=' }), 400: PAGE },
      },
    },
    {
      path: '/logout',
      handler: logout,
      schema: {
        summary:
          "SSO sign-out: ends the session (with subject_aid, leaves that organisation's identity only); returns to next when it is a registered service, else /",
        tags: ['sso'],
        querystring: LogoutQuery,
        response: {
          200: { description: 'the confirmation page (HTML), the session kept' },
          302: Type.Null({ description: 'to next or /' }),
          '4xx': SsoFailure,
        },
      },
    },
  ];
  const host = ssoApp?.host;
  for (const { path, handler, schema } of pages) {
    const route: RouteOptions = {
      method: 'GET',
      url: `/sso${path}`,
      schema,
      config: { envelope: 'sso' },
      handler,
    };
    app.route(route);
    // The same page at the root of SSO_HOST, for that host only.
    if (host)
      app.route({
        ...route,
        url: path,
        constraints: { host: hostPattern(host) },
        config: { envelope: 'sso', onlyHost: host },
      });
  }

  app.get(
    paths.sso.serviceValidate,
    {
      schema: {
        summary:
          "A service's back end trades a ticket for the user, once: the sso envelope with user_id, screen_name and masked identifiers",
        tags: ['sso'],
        querystring: ValidateQuery,
        response: ssoResponses(TicketUser),
      },
      config: { envelope: 'sso' },
    },
    async (request, reply) => {
      const { service, ticket } = request.query as { service: string; ticket: string };
      const checked = checkService(service, app.config.ssoServices);
      if (!checked.ok) throw new PassportError('redirectNotAllowed', { field: 'service' });
      const result = await tickets.validate(service, ticket);
      if (!result.ok) throw new PassportError(result.reason === 'frozen' ? 'accountFrozen' : 'ticketInvalid');
      const { user } = result;
      reply.header('cache-control', 'no-store');
      return ssoSuccess({
        user_id: user.id,
        screen_name: user.screenName,
        mobile: user.mobile ? mask(user.mobile) : '',
        email: user.email ? mask(user.email) : '',
      });
    },
  );
}
