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

/**
 * Checks a service URL: an absolute http(s) URL, no credentials, no control characters or
 * backslashes, no `ticket` parameter of its own, whose origin is exactly one of the registered ones.
 * The URL is kept as given: a ticket is bound to that exact string.
 */
export function checkService(value: unknown, registered: readonly string[]): ServiceCheck {
  if (value === undefined || value === '') return { ok: false, reason: 'missing' };
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return { ok: false, reason: 'malformed' };
  // Browsers treat backslashes as slashes and drop tabs and newlines: refuse them outright.
  if (value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return { ok: false, reason: 'malformed' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'malformed' };
  if (url.username || url.password || url.searchParams.has('ticket'))
    return { ok: false, reason: 'malformed' };
  if (!registered.includes(url.origin)) return { ok: false, reason: 'unregistered' };
  return { ok: true, url: value, origin: url.origin };
}

/** The service URL with the ticket added as a query parameter (before any fragment). */
export function withTicket(service: string, ticket: string): string {
  const url = new URL(service);
  url.searchParams.append('ticket', ticket);
  return url.href;
}
