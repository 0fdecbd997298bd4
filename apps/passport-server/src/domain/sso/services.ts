import { safeRedirect } from '../../protocol';

/**
 * The services that may sign people in through the sso app, registered by origin (SSO_SERVICES; an
 * app registry can replace the list later). A service names itself by a URL: where the browser returns
 * with its ticket, and the URL its back end quotes to validate that ticket.
 */

/** The longest service URL taken; longer ones are malformed. */
const MAX_LENGTH = 2048;

export type ServiceCheck =
  | { ok: true; url: string; origin: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'unregistered' };

/** An origin no service has: relative targets resolve against it, so only registered origins pass. */
const NO_SERVICE = 'https://service.invalid';

/**
 * Checks a service URL by the protocol's one redirect rule (`safeRedirect`: the target as a browser
 * parses it, no credentials, control characters or backslashes, an exact origin), with registered
 * origins as the only allowed ones; a service is also absolute and carries no `ticket` parameter of its
 * own. The URL is kept as given: a ticket is bound to that exact string.
 */
export function checkService(value: unknown, registered: readonly string[]): ServiceCheck {
  if (value === undefined || value === '') return { ok: false, reason: 'missing' };
  if (typeof value !== 'string' || value.length > MAX_LENGTH || !/^https?:\/\//i.test(value))
    return { ok: false, reason: 'malformed' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (safeRedirect(value, { origin: NO_SERVICE, allowedOrigins: registered }) === null)
    return { ok: false, reason: registered.includes(url.origin) ? 'malformed' : 'unregistered' };
  if (url.searchParams.has('ticket')) return { ok: false, reason: 'malformed' };
  return { ok: true, url: value, origin: url.origin };
}

/** The service URL with the ticket added as a query parameter (before any fragment). */
export function withTicket(service: string, ticket: string): string {
  const url = new URL(service);
  url.searchParams.append('ticket', ticket);
  return url.href;
}
