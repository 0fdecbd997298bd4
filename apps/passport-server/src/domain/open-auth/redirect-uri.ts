const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a client's redirect URI (or post-logout redirect URI) is refused, or undefined when it is
 * accepted: an absolute https URL, or http on the loopback interface (a developer's machine, a CLI),
 * with no fragment and no credentials. Every registration path applies it: the developer console and
 * RFC 7591 (the provider's client metadata validation, domain/open-auth/provider). The provider then
 * matches a redirect exactly (no prefix, no case folding).
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
