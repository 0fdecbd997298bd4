/** Host names of the loopback interface, as `URL.hostname` spells them. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a client's redirect URI is refused, or undefined: it must be an absolute https URL, or http on
 * the loopback interface (a developer's machine), with no fragment and no credentials. One rule for
 * the developer console and for operator registration (RFC 7591): a code sent over plain http to
 * another host crosses the network in the clear. The provider then matches it exactly.
 */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not an absolute URL';
  }
  if (url.hash || value.includes('#')) return 'has a fragment';
  if (url.username || url.password) return 'carries credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return undefined;
  return 'neither https nor http on the loopback interface';
}
